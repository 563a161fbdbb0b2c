import Foundation
import HTTPTypes
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
        // One pass over the answer's fields: a handler's own policy and caching stay, and a field
        // this middleware owns that is already there (rare) is taken off before the fixed ones go on.
        var hasPolicy = false
        var hasCacheControl = false
        var hasOwned = false
        for field in response.headers {
            if field.name == .contentSecurityPolicy {
                hasPolicy = true
            } else if field.name == .cacheControl {
                hasCacheControl = true
            } else if Self.owned.contains(field.name) {
                hasOwned = true
            }
        }
        if hasOwned {
            for name in Self.owned { response.headers[name] = nil }
        }
        response.headers.append(contentsOf: Self.fixed)
        // The dev console's page and assets carry their own policy (scripts and styles from
        // 'self'); every other response gets the API's.
        if !hasPolicy { response.headers.append(Self.apiPolicy) }
        if isOverTLS(request), let strictTransportSecurity {
            response.headers.append(HTTPField(name: .strictTransportSecurity, value: strictTransportSecurity))
        }
        if !hasCacheControl { response.headers.append(Self.noStore) }
        return response
    }

    /// The fields every answer gets, built once.
    private static let fixed = [
        HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        HTTPField(name: .xFrameOptions, value: "DENY"),
        HTTPField(name: .referrerPolicy, value: "no-referrer"),
        HTTPField(name: .crossOriginOpenerPolicy, value: "same-origin"),
        HTTPField(name: .crossOriginResourcePolicy, value: "same-origin"),
    ]
    private static let apiPolicy = HTTPField(name: .contentSecurityPolicy, value: "default-src 'none'; frame-ancestors 'none'")
    private static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    /// The fields this middleware decides alone (the `Server` banner among them: never sent).
    private static let owned: [HTTPField.Name] = [
        .xContentTypeOptions, .xFrameOptions, .referrerPolicy, .crossOriginOpenerPolicy, .crossOriginResourcePolicy,
        .strictTransportSecurity, .server,
    ]

    /// HSTS means something only over HTTPS: a server with TLS of its own speaks it on every
    /// connection; otherwise only a trusted proxy's `X-Forwarded-Proto: https` counts. The
    /// request's own scheme does not: a plain-HTTP client can write `https://` in its target.
    private func isOverTLS(_ request: Request) -> Bool {
        if servesTLS { return true }
        guard trustForwardedProto, let proto = request.headers[.xForwardedProto] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }
}
