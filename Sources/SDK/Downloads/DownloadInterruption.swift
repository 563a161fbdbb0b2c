import Foundation

/// Why a download attempt ended early, and what ``Downloads`` does about it: the decision as a
/// value, tested without a network.
enum DownloadInterruption: Equatable {
    /// The connection was lost (refused, dropped, timed out): wait for the server and resume.
    case connectionLost
    /// The server's certificate or pin was refused: fail now with this error.
    case untrusted(NetworkError)
    /// Not the network's fault, or nothing waiting would mend: fail now.
    case final

    /// Classifies an error thrown while a download's response was being fetched.
    ///
    /// The server's answers (403, 404, a bad `Content-Range`, a checksum mismatch: a
    /// ``DownloadError``), cancellation and a failure of the local disk are final; a refused
    /// certificate or pin is untrusted; any other transport failure is a lost connection.
    static func classify(_ error: any Error) -> DownloadInterruption {
        switch error {
        case is CancellationError, is DownloadError, is DownloadDiskFailure:
            return .final
        default:
            let network = NetworkError.from(transportError: error)
            switch network {
            case .cancelled: return .final
            case .pinningFailed, .untrustedCertificate, .securityError: return .untrusted(network)
            default: return .connectionLost
            }
        }
    }
}
