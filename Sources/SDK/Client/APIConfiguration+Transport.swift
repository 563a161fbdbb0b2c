import Foundation

extension APIConfiguration {
    /// The transport the SDK uses when the caller gives none; it checks the configuration's pins.
    ///
    /// On Linux an ``AsyncHTTPClientTransport``, pinned or not: Foundation's `URLSession` there
    /// (libcurl) has no server-trust hook, silently re-sends a request on a kept-alive connection
    /// the server has closed, and can deadlock when a task is cancelled. On Apple platforms a
    /// ``URLSessionTransport``, whose delegate checks the pins when ``pinning`` is enabled. A
    /// pinning configuration that cannot be applied (a trust root that is not a certificate) gives
    /// a transport that refuses every request: pinning never silently falls back to none.
    public func makeDefaultTransport() -> any HTTPTransport {
        Self.makeDefaultTransport(pinning: pinning)
    }

    /// The platform's default transport checking `pinning` (see ``makeDefaultTransport()``).
    static func makeDefaultTransport(pinning: CertificatePinning) -> any HTTPTransport {
        #if canImport(AsyncHTTPClient)
        do {
            return try AsyncHTTPClientTransport(pinning: pinning)
        } catch {
            return RefusingTransport(error: .securityError("pinning configuration: \(error)"))
        }
        #elseif canImport(Security)
        guard pinning.isEnabled else { return URLSessionTransport() }
        return URLSessionTransport(pinning: pinning)
        #else
        guard pinning.isEnabled else { return URLSessionTransport() }
        return RefusingTransport(error: .securityError("certificate pinning is not available on this platform"))
        #endif
    }
}

/// A transport that fails every request with one error: what a pinning configuration that
/// cannot be honoured turns into.
struct RefusingTransport: HTTPTransport {
    let error: NetworkError

    func send(_ request: APIRequest) async throws -> APIResponse {
        throw error
    }
}
