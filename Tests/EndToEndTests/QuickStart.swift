import EduGoSDK
import Foundation

// The README's "SDK quick start" is this function, verbatim between the markers;
// ReadmeQuickStartTests checks that they match and runs it against a live server.
// BEGIN QUICK START
func quickStart(serverURL: URL) async throws -> [Course] {
    // 1. Configure a client for your tenant (tokens persist in the store you choose).
    let client = APIClient(
        configuration: APIConfiguration(baseURL: serverURL, tenantID: "demo"),
        tokenStore: InMemoryTokenStore())
    let auth = AuthService(client: client)

    // 2. Sign in: the session is stored and refreshed for you.
    try await auth.login(email: "student1@demo.edugo.dev", password: "Demo-Student-2026")

    // 3. Call an endpoint.
    do {
        let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 10))
        return page.items
    } catch {
        // 4. Handle errors: a message for people, a flag for retry logic.
        let appError = AppError(error)
        print(appError.userMessage(), appError.isRetryable)
        throw appError
    }
}
// END QUICK START
