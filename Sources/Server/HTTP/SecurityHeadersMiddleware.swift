import Foundation
import Hummingbird

/// Puts the security headers on every response, errors and 404s included, and takes off any
/// `Server` banner.
///
/// Runs outside ``ProblemMiddleware``, so an error reaches it as a problem+json answer.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let strictTransportSecurity: String?
    /// Whether the server itself speaks TLS on every connection (`--tls-cert` or `--tls-dev`).
    var servesTLS = false
    /// Whether `X-Forwarded-Proto: https` (from a TLS-terminating proxy) counts as TLS.
    var trustForwardedProto = false

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        // The dev console's page and assets carry their own policy (scripts and styles from
        // 'self'); every other response gets the API's.
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        if isOverTLS(request), let strictTransportSecurity {
            response.headers[.strictTransportSecurity] = strictTransportSecurity
        } else {
            response.headers[.strictTransportSecurity] = nil
        }
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        response.headers[.server] = nil
        return response
    }

    /// HSTS means something only over HTTPS: a server with TLS of its own speaks it on every
    /// connection; otherwise only a trusted proxy's `X-Forwarded-Proto: https` counts. The
    /// request's own scheme does not: a plain-HTTP client can write `https://` in its target.
    private func isOverTLS(_ request: Request) -> Bool {
        if servesTLS { return true }
        guard trustForwardedProto, let proto = request.headers[.xForwardedProto] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }
}
