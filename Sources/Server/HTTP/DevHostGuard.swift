import Hummingbird

/// Dev mode's own perimeter, in front of every route.
///
/// A dev-mode server is bound to loopback, but a web page the developer opens can still reach it
/// by DNS rebinding (its own name resolving to 127.0.0.1): such requests carry the page's `Host`,
/// so any name other than `localhost`, `127.0.0.1`, `[::1]` or an `--allowed-host` answers
/// `421 misdirected_request`. The port is not checked: rebinding needs the page's own name, and a
/// proxy the developer puts in front (Toxiproxy, mitmproxy, `ssh -L`) forwards the `Host` of its
/// own port. `/__dev/*` (reset tokens of any account) answers `403 dev_loopback_only` to any peer
/// that is not loopback.
///
/// A state-changing call under `/__dev` (POST, PUT, PATCH, DELETE) whose `Origin` is present and
/// not the server's own (`http://` + the request's `Host`, `https://` on a TLS server) answers `403 cross_origin_refused`, so
/// a page on another origin cannot create tenants, arm faults or move the clock through the
/// developer's browser (a `POST` without a JSON body needs no CORS preflight). Callers that send
/// no `Origin` (the SDK, scripts, curl) are not affected; browsers always send it on these methods.
struct DevHostGuard: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let allowedNames: Set<String>
    /// `https` on a server with TLS of its own, else `http`: the scheme of the server's own origin.
    let scheme: String

    init(allowedHosts: [String], servesTLS: Bool = false) {
        self.allowedNames = Set(["localhost", "127.0.0.1", "[::1]"] + allowedHosts.map { $0.lowercased() })
        self.scheme = servesTLS ? "https" : "http"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let authority = request.head.authority
        // HTTP/1 gives the Host header as the authority too: the same name is checked once.
        if let authority, !isAllowed(authority) { throw Self.misdirected }
        if let host = request.headers[.host], host != authority, !isAllowed(host) { throw Self.misdirected }
        guard Self.isDevPath(request.uri.path) else { return try await next(request, context) }
        if !Self.isLoopbackPeer(context.remoteAddress) {
            throw APIError(
                .forbidden, code: "dev_loopback_only", detail: "The /__dev endpoints answer only to loopback clients.")
        }
        if Self.changesState(request.method),
            let origin = request.headers[.origin],
            ![request.head.authority, request.headers[.host]].contains(where: { Self.isSameOrigin(origin, host: $0, scheme: scheme) })
        {
            throw APIError(
                .forbidden, code: "cross_origin_refused",
                detail: "State-changing /__dev calls are refused from another origin than this server's own.")
        }
        return try await next(request, context)
    }

    private static var misdirected: APIError {
        APIError(
            .misdirectedRequest, code: "misdirected_request",
            detail: "This dev-mode server only answers to localhost, 127.0.0.1, [::1] and the names given with --allowed-host.")
    }

    private static func changesState(_ method: HTTPRequest.Method) -> Bool {
        let changing: [HTTPRequest.Method] = [.post, .put, .patch, .delete]
        return changing.contains(method)
    }

    /// Whether an `Origin` header names this server: its scheme (`http`, or `https` on a TLS
    /// server) and exactly the request's `Host` (which the Host check has already allowed).
    /// `null` and every other origin, the same host under the other scheme included, are foreign.
    static func isSameOrigin(_ origin: String, host: String?, scheme: String = "http") -> Bool {
        guard let host, !host.isEmpty else { return false }
        return origin.lowercased() == scheme + "://" + host.lowercased()
    }

    /// `name` or `name:port` with an allowed name and any port (digits only), read as bytes:
    /// every request passes here.
    func isAllowed(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { bytes in
            var nameEnd = bytes.count
            if bytes.first == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
                nameEnd = close + 1
                guard nameEnd == bytes.count || bytes[nameEnd] == UInt8(ascii: ":") else { return false }
            } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                nameEnd = colon
            }
            let name = String(decoding: bytes[..<nameEnd].lazy.map(Self.asciiLowercased), as: UTF8.self)
            guard allowedNames.contains(name) else { return false }
            guard nameEnd < bytes.count else { return true }
            let port = bytes[(nameEnd + 1)...]
            return port.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                && UInt16(String(decoding: port, as: UTF8.self)) != nil
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether a request path is one of the dev endpoints: `/__dev` itself (the console, which the
    /// router also serves without its trailing slash) or anything under `/__dev/`.
    static func isDevPath(_ path: String) -> Bool {
        path == "/__dev" || path.hasPrefix("/__dev/")
    }

    /// In-process requests (tests) have no peer address at all.
    static func isLoopbackPeer(_ address: String) -> Bool {
        address == "unknown" || HostAddress.isLoopback(address)
    }
}
