import EduGoSDK
import EduGoServer
import Foundation

extension ServerConfiguration {
    /// A dev-mode, seeded, in-memory server on `clock` with cheap bcrypt, on a free port.
    static func endToEnd(
        clock: TestClock, storage: Storage = .inMemory, accessTokenLifetime: Duration = .seconds(900),
        rateLimits: RateLimits = .standard
    ) -> ServerConfiguration {
        ServerConfiguration(
            port: 0, storage: storage, devMode: true, seedDemoData: true, logLevel: .critical,
            tokens: .init(accessLifetime: accessTokenLifetime), passwordHashCost: 4, rateLimits: rateLimits,
            now: { clock.now })
    }
}

/// Reads the dev mailbox of a tenant through the SDK's own client (a raw, unauthenticated call).
func mailedToken(kind: String, to email: String, client: APIClient) async throws -> String {
    struct Mailbox: Decodable, Sendable {
        struct Mail: Decodable, Sendable { var kind: String; var token: String }
        var items: [Mail]
    }
    let endpoint = Endpoint(
        .get, ["__dev", "mailbox"], query: [URLQueryItem(name: "email", value: email)], version: nil,
        requiresAuthentication: false)
    let mailbox: Mailbox = try await client.execute(endpoint: endpoint)
    guard let mail = mailbox.items.first(where: { $0.kind == kind }) else { throw FixtureError.noMail }
    return mail.token
}

enum FixtureError: Error {
    case noMail
}

/// The seeded demo accounts.
enum Demo {
    static let studentEmail = "student1@demo.edugo.dev"
    static let studentPassword = "Demo-Student-2026"
    static let adminEmail = "admin@demo.edugo.dev"
    static let adminPassword = "Demo-Admin-2026"
}
