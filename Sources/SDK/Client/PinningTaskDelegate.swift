#if canImport(Security) && !canImport(FoundationNetworking)
import EduGoGuarded
import Foundation
import Logging
import Security

/// The per-task `URLSession` delegate that enforces a ``CertificatePinning`` on Apple platforms.
///
/// For a server-trust challenge it first evaluates the trust the ordinary way
/// (`SecTrustEvaluateWithError`, against the configuration's trust roots when it has any, the
/// system's otherwise), then checks the SPKI SHA-256 of the leaf, or of any certificate in the
/// chain, against the host's pins. A failure cancels the challenge, so the request is never sent,
/// and is remembered so the transport reports ``NetworkError/pinningFailed(host:)``.
final class PinningTaskDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let pinning: CertificatePinning
    private let logger: Logger
    private let failure = Guarded<NetworkError?>(nil)

    init(pinning: CertificatePinning, logger: Logger) {
        self.pinning = pinning
        self.logger = logger
    }

    /// Why the last challenge was refused, if it was.
    var refusal: NetworkError? { failure.withLock { $0 } }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        let host = CertificatePinning.normalized(challenge.protectionSpace.host)
        switch evaluate(trust, host: host) {
        case .none:
            return (.useCredential, URLCredential(trust: trust))
        case .some(let error):
            failure.withLock { $0 = error }
            return (.cancelAuthenticationChallenge, nil)
        }
    }

    /// `nil` when the server is trusted and pinned (or has no pins), else the refusal.
    private func evaluate(_ trust: SecTrust, host: String) -> NetworkError? {
        if !pinning.trustRoots.isEmpty {
            let anchors = pinning.trustRoots.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, true)
        }
        // Chain and host name first: a pin never stands in for validation.
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else { return .untrustedCertificate(host: host) }
        guard let pins = pinning.pins(for: host) else { return nil }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        let candidates = pinning.scope == .leaf ? Array(chain.prefix(1)) : chain
        let presented = candidates.compactMap { certificate in
            try? CertificatePinning.Pin(certificateDER: SecCertificateCopyData(certificate) as Data)
        }
        if presented.contains(where: pins.contains) { return nil }
        logger.warning(
            "TLS public key pin mismatch: request not sent",
            metadata: ["host": .string(host), "presented_pin": .string(presented.first?.description ?? "none")])
        return .pinningFailed(host: host)
    }
}
#endif
