import Foundation

/// Why a download attempt ended early, and what ``Downloads`` does about it: the decision as a
/// value, tested without a network.
enum DownloadInterruption: Equatable {
    /// The connection was lost (refused, dropped, timed out): wait for the server and resume.
    case connectionLost
    /// Not the network's fault, or nothing waiting would mend: fail now.
    case final

    /// Classifies an error thrown while a download's response was being fetched.
    ///
    /// The server's answers (403, 404, a bad `Content-Range`, a checksum mismatch: a
    /// ``DownloadError``), cancellation, a failure of the local disk and a refused certificate or
    /// pin are final; any other transport failure is a lost connection.
    static func classify(_ error: any Error) -> DownloadInterruption {
        switch error {
        case is CancellationError, is DownloadError, is DownloadDiskFailure:
            return .final
        default:
            switch NetworkError.from(transportError: error) {
            case .cancelled, .pinningFailed, .untrustedCertificate, .securityError: return .final
            default: return .connectionLost
            }
        }
    }
}
