import Foundation

extension APIConfiguration {
    /// The transport the SDK uses when the caller gives none.
    ///
    /// Without pinning: ``URLSessionTransport``. With ``pinning`` enabled: on Apple platforms a
    /// ``URLSessionTransport`` whose delegate checks the pins; on Linux, where Foundation's
    /// `URLSession` offers no server-trust hook, an ``AsyncHTTPClientTransport``. A pinning
    /// configuration that cannot be applied (a trust root that is not a certificate) gives a
    /// transport that refuses every request: pinning never silently falls back to none.
    public func makeDefaultTransport() -> any HTTPTransport {
        guard pinning.isEnabled else { return URLSessionTransport() }
        #if canImport(AsyncHTTPClient)
        do {
            return try AsyncHTTPClientTransport(pinning: pinning)
        } catch {
            return RefusingTransport(error: .securityError("pinning configuration: \(error)"))
        }
        #elseif canImport(Security)
        return URLSessionTransport(pinning: pinning)
        #else
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
