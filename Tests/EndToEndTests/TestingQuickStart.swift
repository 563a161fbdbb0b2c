import EduGoSDK
import EduGoTesting
import Foundation

// The README's "Testing your app against EduGo" example, compiled and run by
// ReadmeQuickStartTests. Keep the two in sync (the test compares them).

// BEGIN TESTING QUICK START
func survivesALostAnswerAndAnExpiredToken() async throws -> (firstPage: Int, afterExpiry: Int) {
    // 1. A private dev server in this process: its own storage, a fresh tenant, one account per role.
    let server = try await EduGoTestServer.start()
    let student = server.account(.student)
    let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID))
    try await AuthService(client: client).login(email: student.email, password: student.password)

    // 2. The server loses its answer to the next course list: the read is retried.
    try await server.inject(.dropResponse, method: .get, path: "/v1/courses", times: 1)
    let first: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 10))

    // 3. Fifteen minutes pass on the server: the access token expires, the SDK refreshes it.
    try await server.advanceClock(by: .seconds(901))
    let later: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 10))

    await server.shutdown()
    return (first.items.count, later.items.count)
}
// END TESTING QUICK START
