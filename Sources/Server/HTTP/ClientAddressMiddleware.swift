import Hummingbird

/// Sets ``EduGoRequestContext/clientAddress``: the peer, or — when the peer is a trusted reverse
/// proxy — the address `X-Forwarded-For` names.
///
/// The header is read right to left, skipping the trusted proxies' own entries; the first
/// address that is not a trusted proxy is the client. From an untrusted peer the header is
/// ignored, so a client cannot pick its own rate-limit bucket.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let trustedProxies: [CIDRBlock]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Without trusted proxies the client is the peer, which the context reads when asked.
        guard !trustedProxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = clientAddress(peer: context.remoteAddress, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }

    func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard isTrusted(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard CIDRBlock.bytes(of: hop) != nil else { return peer }  // malformed: trust nothing further
            if !isTrusted(hop) { return hop }
        }
        return peer
    }

    private func isTrusted(_ address: String) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}
