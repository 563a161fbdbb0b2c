import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Testing

/// Every way a tenant's data is replaced under a device — a restore while it pages through its
/// first sync, a restore while one of its writes is in flight with its answer lost, an import of an
/// older export, the tenant deleted and created again under its id — ends with the device's
/// offline view equal to a fresh device's, and nothing it queued lost or applied twice.
///
/// Each replacement is followed by writes that reuse change numbers the device has already
/// passed, so a device that kept reading its old position would skip them.
@Suite(.serialized, .timeLimit(.minutes(5))) struct TimelineReplacementEndToEndTests {
    typealias Reset = TimelineResetEndToEndTests

    /// What the server holds of the student's profile.
    static func serverProfile(_ server: EduGoTestServer, _ tenant: String, _ session: OfflineSession) async throws -> User {
        let admin = try await Reset.signedIn(server, tenant, Reset.admin)
        let me = try #require(try await session.profile.me()?.value)
        return try await admin.execute(endpoint: .Users.get(me.id))
    }

    @Test("a restore between two pages of a device's first sync: the sync starts over and ends where a fresh device is")
    func restoreWhileABaseSyncPages() async throws {
        try await EduGoTestServer.with { server in
            try await withTemporaryDirectory { directory in
                // Given a device signed in but not synced yet, whose sync reads the feed 7 changes a page
                let tenant = try await server.seed(Reset.fixture).id
                let teacher = try await Reset.signedIn(server, tenant, Reset.teacher)
                let transport = PagingTransport(pageSize: 7)
                let learner = try await EduGoClient(
                    configuration: APIConfiguration(
                        baseURL: server.baseURL, tenantID: tenant, retryPolicy: .none, readRefresh: patientReads),
                    dataDirectory: directory, transport: transport, environment: fastEnvironment
                ).signIn(email: Reset.student.email, password: Reset.student.password)

                // And a snapshot of the tenant, and then every course renamed
                let snapshot = try await server.snapshot(tenantID: tenant)
                try await Reset.rename(1...60, prefix: "Deshecho", by: teacher)

                // When the snapshot is restored after its first page, and 30 courses renamed again
                transport.afterNextPage {
                    try await server.restore(snapshot)
                    try await Reset.rename(21...50, prefix: "Nuevo", by: teacher)
                }
                let report = await learner.engine.syncNow()

                // Then the base sync started over on the new timeline, and its view is a fresh device's
                #expect(report.pullError == nil)
                let cursors = transport.cursors.withLock { $0 }
                #expect(cursors.count > 2)
                #expect(cursors.dropFirst().contains(nil), "the base sync starts over after the restore")
                let seen = try await Reset.view(learner)
                #expect(seen == (try await Reset.freshView(server, tenant)))
                #expect(!seen.values.contains { $0.hasPrefix("Deshecho") })
                #expect(seen.values.filter { $0.hasPrefix("Nuevo") }.count == 30)
            }
        }
    }

    @Test("a restore while a device's write is in flight with its answer lost: the write lands once on the restored state")
    func restoreWhileAWriteIsInFlight() async throws {
        try await EduGoTestServer.with { server in
            try await withTemporaryDirectory { directory in
                // Given a device that synced, a snapshot, and 20 renames the device pulled after it
                let tenant = try await server.seed(Reset.fixture).id
                let teacher = try await Reset.signedIn(server, tenant, Reset.teacher)
                let learner = try await Reset.device(server, tenant, directory)
                #expect(await learner.engine.syncNow().pullError == nil)
                let snapshot = try await server.snapshot(tenantID: tenant)
                try await Reset.rename(1...20, prefix: "Deshecho", by: teacher)
                #expect(await learner.engine.syncNow().pullError == nil)

                // And a rename of its profile that the server commits but whose answer is lost
                try await server.inject(.dropResponse, method: .patch, path: "/v1/users/me", times: 1, tenantID: tenant)
                _ = try await learner.profile.update(firstName: "Enviada")
                let lost = await learner.engine.syncNow()
                #expect(lost.sent == 0)
                #expect(try await Self.serverProfile(server, tenant, learner).firstName == "Enviada")

                // When the snapshot is restored (the renames undone) and 30 other courses are renamed
                try await server.restore(snapshot)
                #expect(try await Self.serverProfile(server, tenant, learner).firstName != "Enviada")
                try await Reset.rename(21...50, prefix: "Nuevo", by: teacher)

                // Then the device resets, and its write reaches the restored state exactly once
                let report = await learner.engine.syncNow()
                #expect(report.pullError == nil)
                #expect(report.reset?.reason == .timelineChanged)
                let held = try await Self.serverProfile(server, tenant, learner)
                #expect(held.firstName == "Enviada")
                #expect(held.version == 2, "applied once on the restored version 1")
                await learner.engine.refreshStatus()
                #expect(learner.engine.status.pendingCount == 0)
                #expect(learner.engine.status.conflictCount == 0)
                #expect(try await learner.profile.me()?.value.firstName == "Enviada")
                // And its offline view is a fresh device's
                let seen = try await Reset.view(learner)
                #expect(seen == (try await Reset.freshView(server, tenant)))
                #expect(!seen.values.contains { $0.hasPrefix("Deshecho") })
                #expect(seen.values.filter { $0.hasPrefix("Nuevo") }.count == 30)
            }
        }
    }

    @Test("an import of an older export under a device that synced the newer state: the device resets and keeps its queued write")
    func importOfAnOlderExport() async throws {
        try await withTemporaryDirectory { root in
            let dataDirectory = root.appendingPathComponent("data", isDirectory: true)
            let export = root.appendingPathComponent("export", isDirectory: true)
            try await EduGoTestServer.with({ $0.storage = .directory(dataDirectory) }) { server in
                try await withTemporaryDirectory { directory in
                    // Given a device that synced, and an export of the server's data
                    let tenant = try await server.seed(Reset.fixture).id
                    let teacher = try await Reset.signedIn(server, tenant, Reset.teacher)
                    let learner = try await Reset.device(server, tenant, directory)
                    #expect(await learner.engine.syncNow().pullError == nil)
                    try DataExport.export(dataDirectory: dataDirectory, to: export)

                    // And 20 renames the device pulled after it
                    try await Reset.rename(1...20, prefix: "Deshecho", by: teacher)
                    #expect(await learner.engine.syncNow().pullError == nil)
                    #expect(try await Reset.view(learner).values.filter { $0.hasPrefix("Deshecho") }.count == 20)

                    // When the server is stopped (the device queues a rename meanwhile), the export
                    // imported as `--import` does, and 30 other courses renamed on the imported data
                    await server.stop()
                    _ = try await learner.profile.update(firstName: "Sin conexión")
                    try DataImport.importData(from: export, into: dataDirectory, replace: true)
                    try await server.restart()
                    try await Reset.rename(21...50, prefix: "Nuevo", by: teacher)

                    // Then the device's next sync is a reset, its queued rename lands once
                    let report = await learner.engine.syncNow()
                    #expect(report.pullError == nil)
                    #expect(report.reset?.reason == .timelineChanged)
                    #expect(report.sent == 1)
                    let held = try await Self.serverProfile(server, tenant, learner)
                    #expect(held.firstName == "Sin conexión")
                    #expect(held.version == 2)
                    await learner.engine.refreshStatus()
                    #expect(learner.engine.status.pendingCount == 0)
                    #expect(learner.engine.status.conflictCount == 0)
                    // And its offline view is a fresh device's: no undone rename, every new one
                    let seen = try await Reset.view(learner)
                    #expect(seen == (try await Reset.freshView(server, tenant)))
                    #expect(!seen.values.contains { $0.hasPrefix("Deshecho") })
                    #expect(seen.values.filter { $0.hasPrefix("Nuevo") }.count == 30)
                }
            }
        }
    }

    @Test("the demo tenant deleted and seeded again under its id: a device that synced the old one resets to the new one")
    func tenantRecreatedUnderItsID() async throws {
        try await withTemporaryDirectory { root in
            let dataDirectory = root.appendingPathComponent("data", isDirectory: true)
            try await EduGoTestServer.with({
                $0.storage = .directory(dataDirectory)
                $0.seedDemoData = true
            }) { server in
                try await withTemporaryDirectory { directory in
                    // Given a device of the demo student that synced 4 renamed courses
                    let client = makeEduGoClient(server: server.baseURL, directory: directory)
                    var learner = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                    try await Self.renameDemoCourses(0..<4, prefix: "Antiguo", server: server)
                    #expect(await learner.engine.syncNow().pullError == nil)
                    #expect(try await Reset.view(learner).values.contains { $0.hasPrefix("Antiguo") })

                    // When the server is started once with --drop-demo-tenants and the demo seed (the
                    // tenant deleted and created again under its id, with the same row ids), and 3
                    // other courses are renamed on the new tenant, three times each (more changes
                    // than the device pulled from the old one)
                    await server.stop()
                    try await EduGoTestServer.with({
                        $0.storage = .directory(dataDirectory)
                        $0.seedDemoData = true
                        $0.dropDemoTenants = true
                    }) { _ in }
                    try await server.restart()
                    for round in 1...3 {
                        try await Self.renameDemoCourses(4..<7, prefix: "Nuevo \(round)", server: server)
                    }

                    // Then the student, signed in again (her session went with the old tenant) on
                    // the same device, resets to the new tenant's data
                    learner = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                    let report = await learner.engine.syncNow()
                    #expect(report.pullError == nil)
                    #expect(report.reset?.reason == .timelineChanged)
                    let seen = try await Reset.view(learner)
                    let fresh = try await withTemporaryDirectory { other in
                        let device = try await makeEduGoClient(server: server.baseURL, directory: other)
                            .signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                        #expect(await device.engine.syncNow().pullError == nil)
                        return try await Reset.view(device)
                    }
                    #expect(seen == fresh)
                    #expect(!seen.values.contains { $0.hasPrefix("Antiguo") })
                    #expect(seen.values.contains { $0.hasPrefix("Nuevo") })
                    await learner.engine.refreshStatus()
                    #expect(learner.engine.status.pendingCount == 0)
                }
            }
        }
    }

    /// Renames the demo tenant's courses at `positions` (in id order) as its admin.
    static func renameDemoCourses(_ positions: Range<Int>, prefix: String, server: EduGoTestServer) async throws {
        let admin = try await serverView(server.baseURL, email: Demo.adminEmail, password: Demo.adminPassword)
        let page: Page<Course> = try await admin.execute(endpoint: .Courses.list(limit: 100))
        let courses = page.items.sorted { $0.id < $1.id }
        for position in positions {
            let course = try #require(courses.indices.contains(position) ? courses[position] : nil)
            _ = try await admin.execute(
                endpoint: .Courses.update(course.id),
                body: ["title": AnyEncodable("\(prefix) \(position)"), "version": AnyEncodable(course.version)], as: Course.self)
        }
    }
}
