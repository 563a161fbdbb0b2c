extension EduGoTestServer {
    /// Creates a fresh tenant on this server from `fixture`, in one call: its accounts (passwords
    /// hashed at the server's cost, 4 by default), courses, lessons, enrollments and progress.
    ///
    /// ```swift
    /// let tenant = try await server.seed(SeedTenant(
    ///     users: [.init(email: "ana@school.test", password: "Student-Pass-1", role: .student),
    ///             .init(email: "teacher@school.test", password: "Teacher-Pass-1", role: .teacher)],
    ///     courses: [.init(title: "Álgebra", category: "mathematics", teacher: "teacher@school.test")]))
    /// // sign in to tenant.id as tenant.account(.student)
    /// ```
    ///
    /// Each call makes a new tenant (the server chooses its id), so tests can share one server and
    /// still start from their own known state.
    ///
    /// - Parameter fixture: The tenant's description; its ``SeedTenant/id`` must be `nil`.
    /// - Returns: The tenant's id and its accounts (the first of each role is ``TestTenant/account(_:)``'s).
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` with 422 and a body naming every
    ///   problem by its path (`courses[0].teacher: is not the email of a user of this tenant`) when
    ///   the fixture is invalid; nothing is created then.
    public func seed(_ fixture: SeedTenant) async throws -> TestTenant {
        let created: CreatedTenant = try await devRequest.send(
            "POST", "/__dev/tenants", encoding: fixture, expecting: 201)
        return created.testTenant
    }

    /// Runs `body` with a fresh tenant of this server seeded from `fixture` (see ``seed(_:)``).
    ///
    /// ```swift
    /// try await server.withTenant(fixture) { tenant in
    ///     let student = tenant.account(.student)
    ///     // … sign in to tenant.id as student …
    /// }
    /// ```
    public func withTenant<Value: Sendable>(
        _ fixture: SeedTenant, _ body: (TestTenant) async throws -> Value
    ) async throws -> Value {
        try await body(try await seed(fixture))
    }
}

extension CreatedTenant {
    /// The tenant with the accounts whose role the harness knows.
    var testTenant: EduGoTestServer.TestTenant {
        let accounts = accounts.compactMap { account in
            EduGoTestServer.Role(rawValue: account.role).map {
                EduGoTestServer.Account(email: account.email, password: account.password, role: $0)
            }
        }
        return EduGoTestServer.TestTenant(id: tenantId, accounts: accounts)
    }
}
