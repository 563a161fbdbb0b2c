import Foundation
import Logging

/// Refuses plain HTTP except to loopback hosts, and reports responses that lack the security
/// headers every EduGo server sends (`X-Content-Type-Options`, `X-Frame-Options`).
public struct SecurityGuardInterceptor: Interceptor {
    /// Called with the names of missing headers; the default logs a warning.
    public typealias Reporter = @Sendable (_ missing: [String], _ request: APIRequest) -> Void

    let reporter: Reporter

    /// Creates the guard.
    ///
    /// - Parameters:
    ///   - reporter: Told about responses that lack the security headers; `nil` logs a warning.
    ///   - logger: Where the default reporter writes.
    public init(reporter: Reporter? = nil, logger: Logger = Logger(label: "edugo.sdk.security")) {
        self.reporter = reporter ?? { missing, request in
            logger.warning(
                "response lacks security headers",
                metadata: ["missing": .string(missing.joined(separator: ", ")), "path": .string(request.url.path)])
        }
    }

    /// Refuses a plain-HTTP request to a host that is not loopback before it is sent, and reports an
    /// answer without the security headers (the answer is still returned).
    ///
    /// - Throws: ``NetworkError/securityError(_:)`` for a refused request, or what `next` throws.
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        guard Self.isAllowed(request.url) else {
            throw NetworkError.securityError("Plain HTTP is only allowed to loopback hosts: \(request.url.host ?? "?")")
        }
        let response = try await next(request)
        let missing = ["X-Content-Type-Options", "X-Frame-Options"].filter { response.header($0) == nil }
        if !missing.isEmpty { reporter(missing, request) }
        return response
    }

    /// HTTPS anywhere; HTTP only to `localhost`, `127.0.0.0/8` or `::1`.
    static func isAllowed(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http":
            guard let host = url.host?.lowercased() else { return false }
            return host == "localhost" || host == "::1" || host == "[::1]" || isIPv4Loopback(host)
        default: return false
        }
    }

    /// A dotted-quad literal in `127.0.0.0/8`; a name such as `127.example.com` is not one.
    private static func isIPv4Loopback(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { UInt8($0) != nil && $0.allSatisfy { "0"..."9" ~= $0 } }
    }
}
