import EduGoSDK
import EduGoTesting
import Foundation
import Testing

/// A write's stored answer replayed after a pull brought a later state of the same record: the
/// answer is older than what the device already holds and must not bring back what the pull took
/// away (found by the simulation's sweep, seeds 1254 and 1650 at 10 devices × 100 steps).
@Suite(.timeLimit(.minutes(2))) struct ReplayedAnswerEndToEndTests {
    static let password = "Replayed-Pass-2026"
    static let fixture = SeedTenant(
        users: [
            .init(email: "ben@replay.test", password: password, role: .student, firstName: "Ben"),
            .init(email: "teacher@replay.test", password: password, role: .teacher),
        ],
        courses: [
            SeedTenant.Course(
                key: "A", title: "Course A", category: "mathematics", published: true, teacher: "teacher@replay.test",
                lessons: [.init(key: "A-1", title: "Lesson 1 of A")])
        ])

    /// The fixture's tenant, its teacher signed in, its course, and a device of ben's whose
    /// enrollment in the course the server applied without the answer reaching it.
    struct Setup {
        var tenantID: String
        var teacher: APIClient
        var course: Course
        var session: OfflineSession
        var device: @Sendable (String) -> EduGoClient
    }

    private func enrolledWithAnswerLost(_ server: EduGoTestServer, root: URL) async throws -> Setup {
        let tenant = try await server.seed(Self.fixture)
        let teacher = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id, retryPolicy: .none))
        try await AuthService(client: teacher).login(email: "teacher@replay.test", password: Self.password)
        let courses: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 10))
        let course = try #require(courses.items.first)
        let baseURL = server.baseURL
        let device: @Sendable (String) -> EduGoClient = { name in
            EduGoClient(
                configuration: APIConfiguration(baseURL: baseURL, tenantID: tenant.id, retryPolicy: .none, readRefresh: patientReads),
                dataDirectory: root.appendingPathComponent(name), environment: fastEnvironment)
        }
        let session = try await device("phone").signIn(email: "ben@replay.test", password: Self.password)
        #expect(await session.engine.syncNow().pullError == nil)
        try await session.enrollment.enroll(courseID: course.id)
        try await server.inject(.dropResponse, method: .post, path: "/v1/courses/*/enrollment", times: 1, tenantID: tenant.id)
        _ = await session.engine.syncNow()
        #expect(try await session.engine.outbox.pending().count == 1)
        return Setup(tenantID: tenant.id, teacher: teacher, course: course, session: session, device: device)
    }

    @Test("an enrollment whose answer was lost, replayed after a pull saw its course unpublished, does not come back on the device")
    func replayedEnrollmentAfterUnpublish() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with { server in
                // Given an enrollment the server applied but whose answer was lost
                let given = try await enrolledWithAnswerLost(server, root: root)
                let session = given.session
                // And the course unpublished afterwards, which the device's next pull brings
                let body = try JSONSerialization.data(withJSONObject: ["published": false])
                _ = try await given.teacher.send(endpoint: .Courses.update(given.course.id), body: body, headers: ["If-Match": "*"])
                _ = try await session.engine.refresh(.progress(courseID: given.course.id))

                // When the device drains: the server replays the enrollment's stored answer
                let report = await session.engine.syncNow()
                #expect(report.sent == 1)

                // Then the device holds what a fresh device of the learner holds: no such enrollment
                let fresh = try await given.device("fresh").signIn(email: "ben@replay.test", password: Self.password)
                _ = await fresh.engine.syncNow()
                let freshEnrolled = try await fresh.enrollment.enrolledCourseIDs().value
                #expect(freshEnrolled.isEmpty)
                #expect(try await session.enrollment.enrolledCourseIDs().value == freshEnrolled)
                #expect(try await session.courses.list().value.map(\.id) == fresh.courses.list().value.map(\.id))
            }
        }
    }

    @Test("an enrollment whose answer was lost, replayed after a reset's base sync no longer held its course, does not come back")
    func replayedEnrollmentAfterReset() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with { server in
                // Given an enrollment the server applied but whose answer was lost
                let given = try await enrolledWithAnswerLost(server, root: root)
                let session = given.session
                // And the course deleted, then a snapshot taken and restored (the server's data
                // replaced: the device's next pull is a reset and a base sync without the course;
                // the enrollment's stored answer is in the snapshot)
                _ = try await given.teacher.send(endpoint: .Courses.delete(given.course.id), headers: ["If-Match": "*"])
                try await server.restore(try await server.snapshot(tenantID: given.tenantID))
                _ = try? await session.engine.refresh(.progress(courseID: given.course.id))

                // When the device drains: the server replays the enrollment's stored answer
                _ = await session.engine.syncNow()

                // Then the device holds no enrollment in the course that is gone
                #expect(try await session.engine.outbox.pending().isEmpty)
                #expect(try await session.enrollment.enrolledCourseIDs().value.isEmpty)
            }
        }
    }
}
