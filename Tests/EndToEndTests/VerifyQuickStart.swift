import EduGoSDK
import EduGoTesting
import Foundation

// The README's "Verify what your app sent" example, compiled and run by ReadmeQuickStartTests.
// Keep the two in sync (the test compares them).

// BEGIN VERIFY QUICK START
func enrollsExactlyOnce(storeIn directory: URL) async throws {
    let server = try await EduGoTestServer.start()
    let student = server.account(.student)
    let session = try await EduGoClient(
        configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID), dataDirectory: directory
    ).signIn(email: student.email, password: student.password)
    _ = await session.engine.syncNow()
    let enrolled = try await session.enrollment.enrolledCourseIDs().value
    let course = try await session.courses.list().value.first { !enrolled.contains($0.id) }

    // The server applies the enrollment but its answer is lost; the app sends it again later.
    try await server.inject(.dropResponse, method: .post, path: "/v1/courses/*/enrollment", times: 1)
    try await session.enrollment.enroll(courseID: course?.id ?? "")
    _ = await session.engine.syncNow()
    _ = await session.engine.syncNow()

    // Sent twice with one Idempotency-Key, applied once, answered once (the stored answer replayed).
    try await server.verify(.init(.post, "/v1/courses/*/enrollment"), count: .exactly(2))
    try await server.verify(.init(.post, "/v1/courses/*/enrollment", applied: true), count: .exactly(1))
    try await server.verify(.init(.post, "/v1/courses/*/enrollment", delivered: true), count: .exactly(1))
    await server.shutdown()
}
// END VERIFY QUICK START
