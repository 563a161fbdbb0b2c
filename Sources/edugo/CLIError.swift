import ArgumentParser
import EduGoSDK
import Foundation

/// Failures with their documented exit codes: 1 usage, 2 network unreachable, 3 auth,
/// 4 conflict needs attention, 5 the server's public key matches no `--pin`.
enum CLIError: Error, CustomStringConvertible {
    case notSignedIn
    case unreachable(String)
    case auth(String)
    case conflict(String)
    case pinMismatch(String)
    case failed(String)

    var exitCode: Int32 {
        switch self {
        case .unreachable: 2
        case .notSignedIn, .auth: 3
        case .conflict: 4
        case .pinMismatch: 5
        case .failed: 1
        }
    }

    var description: String {
        switch self {
        case .notSignedIn: "not signed in: run `edugo login --email …` first"
        case .unreachable(let detail), .auth(let detail), .conflict(let detail), .pinMismatch(let detail), .failed(let detail):
            detail
        }
    }

    /// Classifies any error for exit code and message.
    static func from(_ error: any Error) -> CLIError {
        if let error = error as? CLIError { return error }
        if let error = error as? SignOutError, case .pendingChanges(let count, let deadLetters, let conflicts) = error {
            return .conflict(
                "\(count) change(s) not synced, \(deadLetters) dead letter(s), \(conflicts) conflict(s): run `edugo sync now`, "
                    + "see `edugo dead-letters list` and `edugo conflicts list`, or `edugo logout --discard-pending`")
        }
        let network = (error as? NetworkError) ?? (error as? AppError)?.underlying ?? NetworkError.from(transportError: error)
        let message = AppError(network).userMessage(locale: Locale(identifier: "en"))
        switch network {
        case .noConnection, .timeout: return .unreachable("server unreachable: \(message)")
        case .unauthorized, .sessionExpired, .forbidden(code: "email_not_verified"): return .auth(message)
        case .conflict: return .conflict(message)
        case .pinningFailed(let host):
            return .pinMismatch("pin mismatch: the public key of \(host) matches no --pin; nothing was sent")
        case .untrustedCertificate(let host):
            return .failed("untrusted certificate: \(host)'s certificate failed validation (expired, another name, or an issuer not in --ca-cert)")
        case .rateLimited(let retryAfter):
            return .auth("too many attempts; try again in \(retryAfter.map { "\($0.components.seconds) s" } ?? "a while")")
        default: return .failed(message)
        }
    }
}
