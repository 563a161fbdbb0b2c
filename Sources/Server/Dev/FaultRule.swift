import Foundation

/// A per-tenant fault rule of the development server (`POST /__dev/faults`).
///
/// A rule matches requests by method and path glob; each match fires with `probability` (drawn
/// from a generator seeded by `seed` when one is given) and `times` limits how often it fires
/// before it retires.
struct FaultRule: Sendable, Encodable, Equatable {
    /// What a firing rule does to the request.
    enum Action: String, Sendable, Encodable, CaseIterable {
        /// Waits `delay_ms`, then handles the request normally.
        case delay
        /// Answers `status` as problem+json `injected_fault` without running the handler.
        case status
        /// Closes the connection without running the handler.
        case dropRequest = "drop_request"
        /// Runs the handler (a write commits), then closes the connection without answering.
        case dropResponse = "drop_response"
    }

    var id: String
    var method: String?
    var path: String
    var action: Action
    var times: Int?
    var probability: Double
    var seed: UInt64?
    var status: Int
    var retryAfter: Int?
    var delayMs: Int
    /// How often the rule has fired.
    var fired: Int = 0
    /// `false` once a rule with `times` has fired that often.
    var active: Bool = true

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    static let members: Set<String> = [
        "method", "path", "action", "times", "probability", "seed", "status", "retry_after", "delay_ms",
    ]

    var glob: PathGlob? { PathGlob(path) }

    /// Whether the rule applies to a request (before the probability draw).
    func matches(method: String, path: String, glob: PathGlob) -> Bool {
        active && (self.method == nil || self.method == method) && glob.matches(path)
    }
}

extension FaultRule {
    /// Reads and validates a rule from a request body's members.
    ///
    /// - Throws: `400 validation_failed` naming every bad field (unknown members, a bad glob, an
    ///   unknown action or method, a probability outside 0…1, numbers out of range).
    static func parse(_ object: [String: JSONValue], id: String) throws -> FaultRule {
        try JSONObjectReader.checkKeys(object, known: members, writable: members)
        var reader = JSONObjectReader(object)
        let method = reader.oneOf("method", methods)
        let path = reader.string("path", required: true, length: 1...512)
        if let path, PathGlob(path) == nil {
            reader.add(.init(
                field: "path", code: "invalid_format",
                message: "must be an absolute path glob: '*' matches one segment, a final '**' the rest"))
        }
        let action = reader.oneOf("action", required: true, Action.allCases.map(\.rawValue)).flatMap(Action.init)
        let times = reader.int("times", range: 1...1_000_000)
        let probability = readProbability(object, into: &reader)
        let seed = reader.int("seed", range: 0...Int.max).map { UInt64($0) }
        let status = reader.int("status", range: 400...599)
        let retryAfter = reader.int("retry_after", range: 0...86_400)
        let delayMs = reader.int("delay_ms", range: 0...60_000)
        if action == .delay && delayMs == nil && object["delay_ms"] == nil {
            reader.add(.init(field: "delay_ms", code: "required", message: "is required for the delay action"))
        }
        try reader.throwIfInvalid()
        guard let path, let action else { throw APIError.internalError }
        return FaultRule(
            id: id, method: method, path: path, action: action, times: times, probability: probability ?? 1,
            seed: seed, status: status ?? 503, retryAfter: retryAfter, delayMs: delayMs ?? 0)
    }

    private static func readProbability(_ object: [String: JSONValue], into reader: inout JSONObjectReader) -> Double? {
        let value: Double
        switch object["probability"] {
        case nil: return nil
        case .integer(let integer)?: value = Double(integer)
        case .number(let number)?: value = number
        default:
            reader.add(.init(field: "probability", code: "invalid_type", message: "must be a number"))
            return nil
        }
        guard (0...1).contains(value) else {
            reader.add(.init(field: "probability", code: "out_of_range", message: "must be between 0 and 1"))
            return nil
        }
        return value
    }
}
