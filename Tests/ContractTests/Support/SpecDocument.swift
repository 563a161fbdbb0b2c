import Foundation

/// The operations of openapi.yaml, read with a line-based parser of its `paths:` section (no YAML
/// dependency): `  /path:` lines, `    get:`-style method lines and their `      operationId:`.
struct SpecDocument: Sendable {
    struct Operation: Sendable, Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var operationID: String
        /// Marked `x-dev-only: true`: served only in dev mode.
        var isDevOnly = false
        /// Marked `security: []`: callable without a bearer token.
        var isPublic = false
        /// Declares a `requestBody`.
        var hasRequestBody = false
        /// Declares the `Idempotency-Key` parameter.
        var acceptsIdempotencyKey = false

        var description: String { "\(method) \(path) (\(operationID))" }
    }

    let operations: [Operation]

    /// The operations of the repository's openapi.yaml.
    static func load() throws -> SpecDocument {
        try SpecDocument(yaml: loadText())
    }

    /// The text of the repository's openapi.yaml (found from this file's location).
    static func loadText() throws -> String {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // ContractTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    }

    init(yaml: String) throws {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var operations: [Operation] = []
        var inPaths = false
        var path: String?
        var method: String?
        for rawLine in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                continue
            }
            if !line.hasPrefix(" ") {
                inPaths = line.hasPrefix("paths:")
                path = nil
                method = nil
                continue
            }
            guard inPaths else { continue }
            if let key = Self.key(of: line, indent: 2) {
                path = key.hasPrefix("/") ? key : nil
                method = nil
            } else if let key = Self.key(of: line, indent: 4) {
                method = methods.contains(key) ? key.uppercased() : nil
            } else if let path, let method, let value = Self.value(of: line, key: "operationId", indent: 6) {
                operations.append(Operation(method: method, path: path, operationID: value))
            } else if method != nil, let last = operations.indices.last,
                operations[last].path == path, operations[last].method == method
            {
                if Self.value(of: line, key: "x-dev-only", indent: 6) == "true" { operations[last].isDevOnly = true }
                if Self.value(of: line, key: "security", indent: 6) == "[]" { operations[last].isPublic = true }
                if Self.key(of: line, indent: 6) == "requestBody" { operations[last].hasRequestBody = true }
                if Self.indent(of: line) == 6, line.contains("'#/components/parameters/Idempotency-Key'") {
                    operations[last].acceptsIdempotencyKey = true
                }
            }
        }
        guard !operations.isEmpty else { throw SpecDocumentError.noOperations }
        self.operations = operations
    }

    var operationIDs: Set<String> { Set(operations.map(\.operationID)) }

    /// `key` of a `key:` line (nothing after the colon) at exactly `indent` spaces.
    private static func key(of line: String, indent: Int) -> String? {
        guard Self.indent(of: line) == indent else { return nil }
        let content = line.dropFirst(indent)
        guard content.hasSuffix(":") else { return nil }
        return String(content.dropLast())
    }

    /// The value of a `key: value` line at exactly `indent` spaces.
    private static func value(of line: String, key: String, indent: Int) -> String? {
        guard Self.indent(of: line) == indent else { return nil }
        let content = line.dropFirst(indent)
        guard content.hasPrefix("\(key):") else { return nil }
        return content.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
    }

    private static func indent(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }
}

enum SpecDocumentError: Error {
    case noOperations
}
