#if canImport(AsyncHTTPClient)
import EduGoGuarded

/// The AsyncHTTPClient connections an ``APIClient``'s uploads and downloads stream over on Linux:
/// the API transport's own when it is an ``AsyncHTTPClientTransport`` (the default), otherwise
/// made once, from the configuration's pinning, the first time a stream needs them. One set per
/// client, never one per upload.
final class StreamingClients: Sendable {
    private let pinning: CertificatePinning
    private let made: Guarded<Result<AsyncHTTPClientTransport, NetworkError>?>

    init(transport: any HTTPTransport, pinning: CertificatePinning) {
        self.pinning = pinning
        self.made = Guarded((transport as? AsyncHTTPClientTransport).map { .success($0) })
    }

    /// The clients, made on first use.
    ///
    /// - Throws: ``NetworkError/securityError(_:)`` when the pinning configuration cannot be applied.
    func clients() throws -> AsyncHTTPClientTransport {
        try made.withLock { made in
            if let made { return try made.get() }
            let result = Result { try AsyncHTTPClientTransport(pinning: pinning) }
                .mapError { NetworkError.securityError("pinning configuration: \($0)") }
            made = result
            return try result.get()
        }
    }
}
#endif
