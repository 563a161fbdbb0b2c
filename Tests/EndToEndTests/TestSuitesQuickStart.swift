import EduGoSDK
import EduGoTesting
import Foundation

// The README's "Test suites" example, compiled and run by ReadmeQuickStartTests. Keep the two in
// sync (the test compares them).

// BEGIN TEST SUITES QUICK START
func eachTestStartsFromTheSameState() async throws -> (
    seeded: Int, changed: Int, restored: Int, fresh: Int, onDevice: Int, reset: SyncReset.Reason?
) {
    // 1. One server for the whole suite; the state every test starts from is saved once.
    let server = try await EduGoTestServer.start()
    let teacher = server.account(.teacher)
    let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID))
    try await AuthService(client: client).login(email: teacher.email, password: teacher.password)
    //    The app under test keeps one signed-in client that syncs in the background for the
    //    whole suite: restores between tests never need it restarted.
    let device = try await EduGoClient(
        configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID),
        dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    ).signIn(email: teacher.email, password: teacher.password)
    let syncing = Task { await device.run() }
    let seeded = try await server.snapshot()
    let before: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 100))

    // 2. A test changes the data…
    let _: Course = try await client.execute(
        endpoint: .Courses.create, body: ["title": "Álgebra lineal", "category": "mathematics"])
    let changed: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 100))

    // 3. …and the next one starts from the saved state again, restored in milliseconds (the
    //    teacher's session was in it, so the client stays signed in).
    try await server.restore(seeded)
    let restored: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 100))
    //    The running device converges too: the restore started a new timeline, so its next pull
    //    (at once, when it holds the live stream) is a reset that replaces its cached data.
    let report = await device.engine.syncNow()
    let onDevice = try await device.courses.list().value.count
    let reset = report.reset?.reason ?? device.engine.status.lastReset?.reason

    // 4. Or a test takes a tenant of its own on the same server, made from its own fixture
    //    (a seed file's tenant as a Swift value), in one call.
    let fixture = SeedTenant(
        users: [
            .init(email: "teacher@school.test", password: "Teacher-Pass-1", role: .teacher),
            .init(email: "ana@school.test", password: "Student-Pass-1", role: .student),
        ],
        courses: [
            .init(title: "Álgebra", category: "mathematics", teacher: "teacher@school.test",
                  lessons: [.init(title: "Ecuaciones"), .init(title: "Funciones")]),
        ],
        enrollments: [.init(student: "ana@school.test", course: "Álgebra")])
    let fresh = try await server.withTenant(fixture) { tenant in
        let student = tenant.account(.student)
        let own = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id))
        try await AuthService(client: own).login(email: student.email, password: student.password)
        let page: Page<Course> = try await own.execute(endpoint: .Courses.list(limit: 100))
        return page.items.count
    }

    syncing.cancel()
    await syncing.value
    await server.shutdown()
    return (before.items.count, changed.items.count, restored.items.count, fresh, onDevice, reset)
}
// END TEST SUITES QUICK START
