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

    @Option(
        name: .customLong("pin"),
        help: "Accept the server only if its public key has this pin, sha256/<base64> as edugo-server prints it (repeatable: primary and backup). A mismatch exits 5.")
    var pins: [String] = []

    @Option(
        name: .customLong("ca-cert"),
        help: "Trust only the certificates in this PEM file (e.g. the dev server's <data-dir>/tls/dev-cert.pem) instead of the system's roots.")
    var caCertificate: String?

    func validate() throws {
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be 1...300 seconds") }
        for pin in pins where CertificatePinning.Pin(pin) == nil {
            throw ValidationError("--pin '\(pin)' is not a pin: expected sha256/ and the base64 of a SHA-256 digest")
        }
    }

    /// `--pin` and `--ca-cert` as the SDK's pinning configuration for the server's host.
    func pinning(for url: URL) throws -> CertificatePinning {
        var roots: [Data] = []
        if let caCertificate {
            let pem: String
            do {
                pem = try String(contentsOf: URL(fileURLWithPath: caCertificate), encoding: .utf8)
            } catch {
                throw ValidationError("--ca-cert \(caCertificate) cannot be read")
            }
            do {
                roots = try CertificatePinning.trustRoots(pem: pem)
            } catch {
                throw ValidationError("--ca-cert \(caCertificate) holds no PEM certificate")
            }
        }
        guard !pins.isEmpty || !roots.isEmpty else { return .disabled }
        guard pins.isEmpty || url.scheme?.lowercased() == "https" else {
            throw ValidationError("--pin needs an https:// --server")
        }
        return try CertificatePinning(pins: pins.isEmpty ? [:] : [url.host ?? "": pins], trustRoots: roots)
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
        // nil: the SDK picks the transport, one that checks the pins when there are any.
        let transport: (any HTTPTransport)? = offline ? OfflineTransport() : nil
        return EduGoClient(
            configuration: APIConfiguration(
                baseURL: url, tenantID: tenant, timeout: .seconds(timeout), retryPolicy: .none,
                readRefresh: ReadRefreshPolicy(budget: .seconds(timeout)), logLevel: verbose ? .standard : .minimal,
                pinning: try pinning(for: url)),
            // Tokens beside the data directory on every platform: two --data-dir are two sessions.
            dataDirectory: directory,
            tokenStore: FileTokenStore(directory: directory.appendingPathComponent("session", isDirectory: true)),
            transport: transport)
    }

    /// Refuses `--offline` for a command that needs the server (exit 2).
    ///
    /// - Parameter command: the command's name, as the message gives it.
    func requireServer(for command: String) throws {
        if offline { throw CLIError.unreachable("\(command) needs the server; drop --offline") }
    }
}

/// The transport of `--offline`: every request fails as if there were no network.
struct OfflineTransport: HTTPTransport {
    func send(_ request: APIRequest) async throws -> APIResponse {
        throw NetworkError.noConnection
    }
}
