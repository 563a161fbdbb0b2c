import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``DownloadInterruption``: which failures a download waits through (a lost connection) and which
/// end it at once.
@Suite(.timeLimit(.minutes(1))) struct DownloadInterruptionTests {
    @Test("a refused, dropped or timed-out connection is a lost connection: the download waits")
    func transportFailuresWait() {
        for error: any Error in [
            URLError(.networkConnectionLost), URLError(.cannotConnectToHost), URLError(.timedOut),
            NetworkError.noConnection, NetworkError.timeout, MysteryTransportError(),
        ] {
            #expect(DownloadInterruption.classify(error) == .connectionLost, "\(error)")
        }
    }

    @Test("the server's refusals, a checksum mismatch, cancellation and a disk failure end the download")
    func otherFailuresAreFinal() {
        for error: any Error in [
            DownloadError.refused(status: 403, code: nil), DownloadError.refused(status: 404, code: nil),
            DownloadError.checksumMismatch(expected: "a", actual: "b"), DownloadError.invalidResponse("no ETag"),
            CancellationError(), URLError(.cancelled), NetworkError.cancelled,
            DownloadDiskFailure(underlying: CocoaError(.fileWriteOutOfSpace)),
        ] {
            #expect(DownloadInterruption.classify(error) == .final, "\(error)")
        }
    }

    @Test("a refused pin or certificate ends the download, and says which")
    func refusedCertificatesAreUntrusted() {
        let host = "api.example.com"
        #expect(DownloadInterruption.classify(NetworkError.pinningFailed(host: host)) == .untrusted(.pinningFailed(host: host)))
        #expect(
            DownloadInterruption.classify(NetworkError.untrustedCertificate(host: host)) == .untrusted(.untrustedCertificate(host: host)))
        #expect(DownloadInterruption.classify(NetworkError.securityError("TLS failed")) == .untrusted(.securityError("TLS failed")))
        guard case .untrusted(.untrustedCertificate) = DownloadInterruption.classify(URLError(.serverCertificateUntrusted)) else {
            Issue.record("a URLError for an untrusted certificate is not classified as untrusted")
            return
        }
    }

    private struct MysteryTransportError: Error {}
}
