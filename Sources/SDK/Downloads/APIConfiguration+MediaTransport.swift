import Foundation

extension APIConfiguration {
    /// The media transport ``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)``
    /// uses when the caller gives none: the same certificate pinning as ``makeDefaultTransport()``.
    ///
    /// Without pinning: AsyncHTTPClient's shared client on Linux, `URLSession` on Apple platforms.
    /// With ``pinning`` enabled: an ``AsyncHTTPClientMediaTransport`` checking the pins on Linux, a
    /// ``URLSessionMediaTransport`` whose delegate checks them on Apple platforms. A pinning
    /// configuration that cannot be applied gives a transport that refuses every download: pinning
    /// never silently falls back to none.
    public func makeDefaultMediaTransport() -> any MediaTransport {
        guard pinning.isEnabled else { return Downloads.defaultTransport() }
        #if canImport(AsyncHTTPClient)
        do {
            return try AsyncHTTPClientMediaTransport(pinning: pinning)
        } catch {
            return RefusingMediaTransport(error: .securityError("pinning configuration: \(error)"))
        }
        #elseif canImport(Security)
        return URLSessionMediaTransport(pinning: pinning)
        #else
        return RefusingMediaTransport(error: .securityError("certificate pinning is not available on this platform"))
        #endif
    }
}
