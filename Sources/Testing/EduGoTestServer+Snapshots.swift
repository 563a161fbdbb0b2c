import EduGoServerStore
import Foundation

extension EduGoTestServer {
    /// A saved state of one tenant, made by ``EduGoTestServer/snapshot(tenantID:)``.
    public struct Snapshot: Sendable, Equatable, Decodable {
        /// The snapshot's id on the server.
        public var id: String
        /// The tenant it is a state of.
        public var tenantID: String
        /// When it was saved, on the server's clock.
        public var createdAt: Date
        /// The size of its copy of the tenant's database.
        public var sizeBytes: Int

        enum CodingKeys: String, CodingKey {
            case id, tenantID = "tenantId", createdAt, sizeBytes
        }
    }

    /// A fresh tenant made by ``EduGoTestServer/withTenant(_:)``, with one account per role.
    public struct TestTenant: Sendable, Equatable {
        /// The tenant's id (send it as `X-Tenant-ID` / the SDK's tenant).
        public var id: String
        /// Its accounts, one per role.
        public var accounts: [Account]

        /// The tenant's account with `role`.
        public func account(_ role: Role) -> Account {
            accounts.first { $0.role == role } ?? Account(email: "", password: "", role: role)
        }
    }

    /// Saves the whole state of a tenant (users, sessions, courses, lessons, enrollments,
    /// progress, the change feed) so that ``restore(_:)`` can put it back.
    ///
    /// Take one after a suite's expensive setup, then restore it before each test instead of
    /// building the state again:
    ///
    /// ```swift
    /// let seeded = try await server.snapshot()
    /// // … a test changes things …
    /// try await server.restore(seeded)   // as it was, in milliseconds
    /// ```
    ///
    /// The server keeps at most 20 snapshots per tenant (``ServerConfiguration/maxSnapshotsPerTenant``).
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` with 409 when the tenant holds
    ///   as many snapshots as the server keeps.
    public func snapshot(tenantID: String? = nil) async throws -> Snapshot {
        try await devRequest.send("POST", "/__dev/tenants/\(Self.pathSegment(tenantID ?? self.tenantID))/snapshots", expecting: 201)
    }

    /// Puts `snapshot` back as its tenant's whole state, atomically: a request sees the state
    /// before or the state after, never a mix.
    ///
    /// Sign-ins made after the snapshot are not in it, so their tokens answer 401 afterwards (an
    /// SDK client signs in again); tokens of sessions that existed at the snapshot keep working.
    ///
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` with 404 when the snapshot was deleted.
    public func restore(_ snapshot: Snapshot) async throws {
        let _: Snapshot = try await devRequest.send(
            "POST", "/__dev/tenants/\(Self.pathSegment(snapshot.tenantID))/restore",
            body: ["snapshot_id": .string(snapshot.id)], expecting: 200)
    }

    /// Deletes `snapshot` from the server (a tenant keeps at most 20).
    public func deleteSnapshot(_ snapshot: Snapshot) async throws {
        try await devRequest.sendWithoutAnswer(
            "DELETE", "/__dev/tenants/\(Self.pathSegment(snapshot.tenantID))/snapshots/\(Self.pathSegment(snapshot.id))",
            expecting: 204)
    }

    /// Runs `body` with a fresh tenant of this server, so that each test starts from a known state
    /// without starting a server of its own.
    ///
    /// ```swift
    /// try await server.withTenant { tenant in
    ///     let student = tenant.account(.student)
    ///     // … sign in to tenant.id as student …
    /// }
    /// ```
    ///
    /// The server has no endpoint that deletes a tenant: the tenant stays, invisible to every
    /// other tenant, until the server shuts down (and its temporary storage with it).
    public func withTenant<Value: Sendable>(_ body: (TestTenant) async throws -> Value) async throws -> Value {
        let created: CreatedTenant = try await devRequest.send("POST", "/__dev/tenants", expecting: 201)
        return try await body(created.testTenant)
    }

    /// `value` percent-encoded as one path segment.
    private static func pathSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? value
    }
}
