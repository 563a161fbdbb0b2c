import Foundation

/// The seed files shipped with the server (`Resources/Seeds`): the demo data and the fixture of
/// a `POST /__dev/tenants` without a body.
enum BundledSeeds {
    /// `demo.json`: the `demo` and `acme` tenants, seeded at start in dev mode.
    static var demo: SeedDescription {
        get throws { try loaded.demo.get() }
    }

    /// `test-tenant.json`'s one tenant: what `POST /__dev/tenants` seeds without a body.
    static var testTenant: SeedDescription.Tenant {
        get throws {
            guard let tenant = try loaded.testTenant.get().tenants.first else {
                throw SeedValidationError(issues: [.init(field: "tenants", code: "required", message: "required")])
            }
            return tenant
        }
    }

    /// Read and validated once per process.
    private static let loaded: (demo: Result<SeedDescription, any Error>, testTenant: Result<SeedDescription, any Error>) = (
        Result { try load("demo") }, Result { try load("test-tenant") }
    )

    private static func load(_ name: String) throws -> SeedDescription {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Seeds") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Seeds/\(name).json"])
        }
        return try SeedDescription.load(contentsOf: url)
    }
}
