import EduGoServerStore
import Foundation

extension SeedDescription {
    /// Reads and validates a seed file: `{"tenants": [...]}`.
    ///
    /// - Throws: ``SeedValidationError`` naming every problem of the whole file, or
    ///   `JSONParser.Failure` when it is not JSON.
    static func parse(file data: Data) throws -> SeedDescription {
        var parser = SeedParser()
        let root = try JSONParser.parse(data, limits: .unbounded)
        var tenants: [Tenant] = []
        if let object = parser.object(root, at: "", keys: ["tenants"]) {
            let list = parser.array(object, "tenants", at: "", required: true)
            var seen: [String: Int] = [:]
            for (index, value) in list.enumerated() {
                let path = "tenants[\(index)]"
                guard let tenant = parser.tenant(value, at: path, allowsID: true) else { continue }
                if let id = tenant.id?.rawValue {
                    if let first = seen[id] {
                        parser.fail("\(path).id", "duplicate", "duplicate: also tenants[\(first)].id")
                    } else {
                        seen[id] = index
                    }
                }
                tenants.append(tenant)
            }
        }
        try parser.throwIfInvalid()
        return SeedDescription(tenants: tenants)
    }

    /// Reads a seed file from disk (see ``parse(file:)``).
    static func load(contentsOf url: URL) throws -> SeedDescription {
        let data = try Data(contentsOf: url)
        do {
            return try parse(file: data)
        } catch is JSONParser.Failure {
            throw SeedValidationError(issues: [.init(field: "$", code: "malformed_json", message: "is not well-formed JSON")])
        }
    }
}

extension SeedDescription.Tenant {
    /// Reads one tenant's description, the body of `POST /__dev/tenants` (paths start at the
    /// tenant: `courses[3].lessons[0].title`). Its `id` is refused: the server chooses one.
    ///
    /// - Throws: ``SeedValidationError`` naming every problem.
    static func parse(body: [String: JSONValue]) throws -> SeedDescription.Tenant {
        var parser = SeedParser()
        let tenant = parser.tenant(.object(body), at: "", allowsID: false)
        try parser.throwIfInvalid()
        guard let tenant else { throw SeedValidationError(issues: []) }
        return tenant
    }
}
