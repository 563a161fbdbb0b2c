import Foundation

extension APIConfiguration {
    /// A media transport for ``Downloads`` with the same certificate pinning as ``makeDefaultTransport()``.
    ///
    /// On Linux an ``AsyncHTTPClientMediaTransport``, pinned or not; on Apple platforms `URLSession`
    /// (a ``URLSessionMediaTransport`` whose delegate checks the pins when ``pinning`` is enabled).
    /// A pinning configuration that cannot be applied gives a transport that refuses every
    /// download: pinning never silently falls back to none.
    /// ``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)`` uses the client's
    /// own connections instead of making new ones.
    public func makeDefaultMediaTransport() -> any MediaTransport {
        #if canImport(AsyncHTTPClient)
        do {
            return try AsyncHTTPClientMediaTransport(pinning: pinning)
        } catch {
            return RefusingMediaTransport(error: .securityError("pinning configuration: \(error)"))
        }
        #elseif canImport(Security)
        guard pinning.isEnabled else { return URLSessionMediaTransport() }
        return URLSessionMediaTransport(pinning: pinning)
        #else
        guard pinning.isEnabled else { return URLSessionMediaTransport() }
        return RefusingMediaTransport(error: .securityError("certificate pinning is not available on this platform"))
        #endif
    }
}
