import EduGoSDK
import EduGoServer
import Foundation

/// Real time with sleeps shortened 50×, so probes and retries happen quickly but never spin.
let fastEnvironment = SDKEnvironment(
    now: { Date() },
    sleep: { duration in try await Task.sleep(for: duration / 50) },
    jitter: { 0 })

/// Reads that wait up to 30 s: the whole suite shares two cores, and these tests are about sync,
/// not about the read budget (CLIStaleReadEndToEndTests and ReadRefreshTests are).
let patientReads = ReadRefreshPolicy(budget: .seconds(30))

/// A temporary directory removed when the test ends.
func withTemporaryDirectory<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("edugo-e2e-\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// An offline-first client on `directory`, as an app would build it.
func makeEduGoClient(server: URL, directory: URL, environment: SDKEnvironment = fastEnvironment, policy: ConflictPolicy = ConflictPolicy()) -> EduGoClient {
    EduGoClient(
        configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads),
        dataDirectory: directory, environment: environment, conflictPolicy: policy)
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// A plain client signed in as `email`, for checking what the server holds.
func serverView(_ server: URL, email: String = Demo.studentEmail, password: String = Demo.studentPassword) async throws -> APIClient {
    let client = APIClient(configuration: APIConfiguration(baseURL: server, tenantID: "demo", retryPolicy: .none))
    try await AuthService(client: client).login(email: email, password: password)
    return client
}
