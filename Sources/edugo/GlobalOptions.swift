import ArgumentParser
import EduGoSDK
import Foundation

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The EduGo server.")
    var server: String = "http://127.0.0.1:8080"

    @Option(help: "The tenant to use.")
    var tenant: String = "demo"

    @Option(name: .customLong("data-dir"), help: "Where the SDK keeps its local store (default: ~/.edugo-cli).")
    var dataDirectory: String?

    @Flag(help: "Machine-readable JSON output.")
    var json = false

    @Flag(help: "Never touch the network; answer from the local store.")
    var offline = false

    @Flag(name: .short, help: "Verbose: log each HTTP request and the SDK's warnings (secrets redacted) to stderr.")
    var verbose = false

    @Option(help: "Seconds to wait for the server before a read answers from the local store.")
    var timeout: Int = 5

    func validate() throws {
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be 1...300 seconds") }
    }

    var directory: URL {
        if let dataDirectory { return URL(fileURLWithPath: dataDirectory, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".edugo-cli", isDirectory: true)
    }

    /// The SDK's front door, configured from the options.
    func client() throws -> EduGoClient {
        guard let url = URL(string: server), url.scheme != nil, url.host != nil else {
            throw ValidationError("--server must be a URL such as http://127.0.0.1:8080")
        }
        let transport: any HTTPTransport = offline ? OfflineTransport() : URLSessionTransport()
        return EduGoClient(
            configuration: APIConfiguration(
                baseURL: url, tenantID: tenant, timeout: .seconds(timeout), retryPolicy: .none,
                readRefresh: ReadRefreshPolicy(budget: .seconds(timeout)), logLevel: verbose ? .standard : .minimal),
            dataDirectory: directory, transport: transport)
    }

    /// The signed-in user's session, or the "not signed in" error (exit 3).
    func session(_ client: EduGoClient) async throws -> OfflineSession {
        guard let session = try await client.resumeSession() else { throw CLIError.notSignedIn }
        return session
    }
}

/// The transport of `--offline`: every request fails as if there were no network.
struct OfflineTransport: HTTPTransport {
    func send(_ request: APIRequest) async throws -> APIResponse {
        throw NetworkError.noConnection
    }
}
