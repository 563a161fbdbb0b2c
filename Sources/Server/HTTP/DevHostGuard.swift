import Hummingbird
import Synchronization

/// The port the server actually bound (known once it listens; `0` before).
final class BoundPort: Sendable {
    private let value = Mutex(0)

    func set(_ port: Int) { value.withLock { $0 = port } }
    var port: Int { value.withLock { $0 } }
}

/// Dev mode's own perimeter, in front of every route.
///
/// A dev-mode server is bound to loopback, but a web page the developer opens can still reach it
/// by DNS rebinding (its own name resolving to 127.0.0.1): such requests carry the page's `Host`,
/// so any name other than `localhost`, `127.0.0.1`, `[::1]` or an `--allowed-host` answers
/// `421 misdirected_request`; a port other than the bound one likewise. `/__dev/*` (reset tokens
/// of any account) answers `403 dev_loopback_only` to any peer that is not loopback.
struct DevHostGuard: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let allowedNames: Set<String>
    let boundPort: BoundPort

    init(allowedHosts: [String], boundPort: BoundPort) {
        self.allowedNames = Set(["localhost", "127.0.0.1", "[::1]"] + allowedHosts.map { $0.lowercased() })
        self.boundPort = boundPort
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        for host in [request.head.authority, request.headers[.host]].compactMap({ $0 }) where !isAllowed(host) {
            throw APIError(
                .misdirectedRequest, code: "misdirected_request",
                detail: "This dev-mode server only answers to localhost, 127.0.0.1, [::1] and the names given with --allowed-host.")
        }
        if request.uri.path.hasPrefix("/__dev/"), !Self.isLoopbackPeer(context.remoteAddress) {
            throw APIError(
                .forbidden, code: "dev_loopback_only", detail: "The /__dev endpoints answer only to loopback clients.")
        }
        return try await next(request, context)
    }

    /// `name` or `name:port`, where the port, when given and known, must be the bound one.
    func isAllowed(_ host: String) -> Bool {
        let host = host.lowercased()
        var name = host
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = String(host[...close])
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                port = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            name = String(host[..<colon])
            port = host[host.index(after: colon)...]
        }
        guard allowedNames.contains(name) else { return false }
        guard let port else { return true }
        guard let number = Int(port) else { return false }
        let bound = boundPort.port
        return bound == 0 || number == bound
    }

    /// In-process requests (tests) have no peer address at all.
    static func isLoopbackPeer(_ address: String) -> Bool {
        address == "unknown" || HostAddress.isLoopback(address)
    }
}
