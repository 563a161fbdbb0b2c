import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Testing

/// A server whose data is replaced under a device (a snapshot restored) never leaves the device
/// silently wrong: its next pull is a reset that ends with the device's offline view equal to a
/// fresh device's, keeping its queued writes and never sending one on top of an undone state.
@Suite(.serialized, .timeLimit(.minutes(5))) struct TimelineResetEndToEndTests {
    static let teacher = SeedTenant.User(email: "teacher@timeline.test", password: "Teacher-Pass-1", role: .teacher)
    static let student = SeedTenant.User(email: "ana@timeline.test", password: "Student-Pass-1", role: .student)
    static let admin = SeedTenant.User(email: "admin@timeline.test", password: "Admin-Pass-123", role: .admin)

    /// The tenant: 60 published courses, a teacher, a student and an admin.
    static let fixture = SeedTenant(
        users: [teacher, student, admin],
        courses: (1...60).map { number in
            SeedTenant.Course(
                title: String(format: "Curso %02d", number), category: "mathematics", teacher: teacher.email)
        })

    /// An offline-first device of `tenant` on `directory`, signed in as the student.
    static func device(_ server: EduGoTestServer, _ tenant: String, _ directory: URL) async throws -> OfflineSession {
        try await EduGoClient(
            configuration: APIConfiguration(
                baseURL: server.baseURL, tenantID: tenant, retryPolicy: .none, readRefresh: patientReads),
            dataDirectory: directory, environment: fastEnvironment
        ).signIn(email: student.email, password: student.password)
    }

    /// A plain client of `tenant` signed in as `user`.
    static func signedIn(_ server: EduGoTestServer, _ tenant: String, _ user: SeedTenant.User) async throws -> APIClient {
        let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant, retryPolicy: .none))
        try await AuthService(client: client).login(email: user.email, password: user.password)
        return client
    }

    /// Renames the courses at `positions` (1-based, in title order) to `prefix` + their number.
    static func rename(_ positions: ClosedRange<Int>, prefix: String, by teacher: APIClient) async throws {
        let page: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 100))
        let courses = page.items.sorted { $0.id < $1.id }
        for position in positions {
            let course = courses[position - 1]
            _ = try await teacher.execute(
                endpoint: .Courses.update(course.id),
                body: ["title": AnyEncodable("\(prefix) \(position)"), "version": AnyEncodable(course.version)], as: Course.self)
        }
    }

    /// What a device shows offline: each course's id and title.
    static func view(_ session: OfflineSession) async throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try await session.courses.list().value.map { ($0.id, $0.title) })
    }

    /// What a device signed in now, with nothing cached, shows after one sync.
    static func freshView(_ server: EduGoTestServer, _ tenant: String) async throws -> [String: String] {
        try await withTemporaryDirectory { directory in
            let fresh = try await device(server, tenant, directory)
            #expect(await fresh.engine.syncNow().pullError == nil)
            return try await view(fresh)
        }
    }

    @Test("a quiet device across a restore and 30 new renames: sync now resets, and its view equals a fresh device's")
    func quietDeviceAcrossARestore() async throws {
        try await EduGoTestServer.with { server in
            try await withTemporaryDirectory { directory in
                // Given a device that synced the 60 courses, and a snapshot
                let tenant = try await server.seed(Self.fixture).id
                let teacher = try await Self.signedIn(server, tenant, Self.teacher)
                let learner = try await Self.device(server, tenant, directory)
                #expect(await learner.engine.syncNow().pullError == nil)
                #expect(try await Self.view(learner).count == 60)
                let snapshot = try await server.snapshot(tenantID: tenant)

                // And 20 renames the device pulled
                try await Self.rename(1...20, prefix: "Deshecho", by: teacher)
                #expect(await learner.engine.syncNow().pullError == nil)

                // When the snapshot is restored while the device is quiet, and 30 other courses are renamed
                try await server.restore(snapshot)
                try await Self.rename(21...50, prefix: "Nuevo", by: teacher)

                // Then the device's next sync is a reset that says why
                let report = await learner.engine.syncNow()
                #expect(report.pullError == nil)
                let reset = try #require(report.reset)
                #expect(reset.reason == .timelineChanged)
                #expect(reset.resynced == 50)
                #expect(reset.needsAttention == 0)
                #expect(learner.engine.status.lastReset?.reason == .timelineChanged)
                // And its offline view is a fresh device's: no undone rename, every new one
                let seen = try await Self.view(learner)
                #expect(seen == (try await Self.freshView(server, tenant)))
                #expect(!seen.values.contains { $0.hasPrefix("Deshecho") })
                #expect(seen.values.filter { $0.hasPrefix("Nuevo") }.count == 30)
            }
        }
    }

    @Test("a device holding the live stream hears reset when the restore happens and converges without a sync now")
    func deviceHoldingTheStream() async throws {
        try await EduGoTestServer.with { server in
            try await withTemporaryDirectory { directory in
                let tenant = try await server.seed(Self.fixture).id
                let teacher = try await Self.signedIn(server, tenant, Self.teacher)
                let learner = try await Self.device(server, tenant, directory)
                #expect(await learner.engine.syncNow().pullError == nil)
                let snapshot = try await server.snapshot(tenantID: tenant)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await learner.run() }
                    defer { group.cancelAll() }
                    #expect(try await eventually { learner.engine.isLiveStreamHeld })
                    try await Self.rename(1...20, prefix: "Deshecho", by: teacher)
                    #expect(try await eventually { try await Self.view(learner).values.filter { $0.hasPrefix("Deshecho") }.count == 20 })

                    // When the snapshot is restored under the running device, and 30 other courses renamed
                    try await server.restore(snapshot)
                    try await Self.rename(21...50, prefix: "Nuevo", by: teacher)

                    // Then the device resets on its own and ends where a fresh device is
                    let expected = try await Self.freshView(server, tenant)
                    #expect(try await eventually { try await Self.view(learner) == expected })
                    #expect(learner.engine.status.lastReset?.reason == .timelineChanged)
                }
            }
        }
    }

    @Test("a queued write whose base the restore undid is not sent on top of the new state: its conflict rule rebases it")
    func queuedWriteOnAnUndoneBase() async throws {
        try await EduGoTestServer.with { server in
            try await withTemporaryDirectory { directory in
                // Given the student's device renamed her profile (sent: the server holds it at version 2)
                let tenant = try await server.seed(Self.fixture).id
                let admin = try await Self.signedIn(server, tenant, Self.admin)
                let learner = try await Self.device(server, tenant, directory)
                #expect(await learner.engine.syncNow().pullError == nil)
                let snapshot = try await server.snapshot(tenantID: tenant)
                _ = try await learner.profile.update(firstName: "Primera")
                #expect(await learner.engine.syncNow().sent == 1)

                // When the restore undoes it and an admin gives the profile another version 2
                try await server.restore(snapshot)
                let me = try #require(try await learner.profile.me()?.value)
                let current: User = try await admin.execute(endpoint: .Users.get(me.id))
                let renamed: User = try await admin.execute(
                    endpoint: .Users.update(me.id),
                    body: ["last_name": AnyEncodable("Administrada"), "version": AnyEncodable(current.version)])
                #expect(renamed.version == 2)
                // And the quiet device queues another rename on its (undone) version 2
                _ = try await learner.profile.update(firstName: "Segunda")

                // Then its sync resets first, and the write is rebased by the profile's merge rule,
                // keeping the admin's change instead of overwriting the state it never saw
                let report = await learner.engine.syncNow()
                let reset = try #require(report.reset)
                #expect(reset.reason == .timelineChanged)
                #expect(reset.rebased == 1)
                #expect(report.sent == 1)
                let held: User = try await admin.execute(endpoint: .Users.get(me.id))
                #expect(held.firstName == "Segunda")
                #expect(held.lastName == "Administrada")
                #expect(held.version == 3)
                await learner.engine.refreshStatus()
                #expect(learner.engine.status.pendingCount == 0)
                #expect(learner.engine.status.conflictCount == 0)
            }
        }
    }
}
