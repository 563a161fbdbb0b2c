import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything that can go wrong talking to the EduGo API, decoded from the transport error or
/// the problem+json `code`.
public enum NetworkError: Error, Sendable, Equatable {
    /// The URL could not be built: a base URL without scheme or host, or an empty id in the path.
    /// A programming error, not a network one.
    case invalidURL(String)
    /// No route to the server (offline, DNS, refused connection, dropped connection).
    case noConnection
    /// No answer in time: the attempt's timeout, a read refresh's budget, or a 408.
    case timeout
    /// 401: missing, invalid or expired credentials (`code` says which).
    case unauthorized(code: String?)
    /// The session ended: the refresh token was rejected and the tokens were cleared.
    case sessionExpired
    /// 403: signed in but not allowed; `code` says why (for example `email_not_verified` or
    /// `not_enrolled`).
    case forbidden(code: String?)
    /// 404: nothing at that address, such as a deleted course or a wrong id.
    case notFound(code: String?)
    /// 409/412 version conflict, carrying the server's current state for a merge.
    case conflict(currentVersion: Int?, current: Data?)
    /// Any other 409, 412, 422 or 428 refusal with its code.
    case rejected(status: Int, code: String?)
    /// 429: too many requests; wait `retryAfter`, when the server gave it, before trying again.
    case rateLimited(retryAfter: Duration?)
    /// 400 with field errors: show each one beside its field.
    case validation([ProblemDetails.FieldError])
    /// 5xx; `retryAfter` is the server's `Retry-After`, when it sent one (a 503 often does).
    case serverError(status: Int, code: String?, retryAfter: Duration? = nil)
    /// An answer whose body is not what the SDK expected; the text says where decoding failed.
    case decodingError(String)
    /// The request body could not be encoded as JSON.
    case encodingError(String)
    /// The security guard refused the request or response.
    case securityError(String)
    /// The server's public key matched none of the pins configured for `host` (see
    /// ``CertificatePinning``). Raised during the TLS handshake, before any request byte is sent.
    /// Never retried, never taken for "offline": someone may be intercepting the connection, or
    /// the server's key was rotated to one the app does not pin.
    case pinningFailed(host: String)
    /// The server's certificate failed validation for `host`: expired or not yet valid, issued for
    /// another name, or by an issuer the client does not trust. Checked before any pin.
    case untrustedCertificate(host: String)
    /// The task was cancelled. Not a failure to show the user.
    case cancelled
    /// A failure the SDK does not classify; the text names it, for logs.
    case unknown(String)

    /// Classifies a transport failure.
    public static func from(transportError error: any Error) -> NetworkError {
        if error is CancellationError { return .cancelled }
        if let error = error as? NetworkError { return error }
        if error as? OfflineSessionError == .signedOut { return .sessionExpired }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .serverCertificateHasUnknownRoot:
                return .untrustedCertificate(host: urlError.failingURL?.host ?? "")
            case .timedOut: return .timeout
            case .cancelled: return .cancelled
            case .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
                .dnsLookupFailed, .internationalRoamingOff, .dataNotAllowed, .callIsActive, .secureConnectionFailed:
                return .noConnection
            default: return .unknown("URLError \(urlError.code.rawValue)")
            }
        }
        return .unknown(String(describing: type(of: error)))
    }

    /// Classifies an HTTP error response by status and problem `code`.
    ///
    /// - Parameter now: the clock an HTTP-date `Retry-After` is measured from.
    public static func from(response: APIResponse, now: Date = Date()) -> NetworkError {
        let problem = ProblemDetails.decode(response.body)
        let code = problem?.code
        switch response.statusCode {
        case 400 where problem?.errors?.isEmpty == false:
            return .validation(problem?.errors ?? [])
        case 401: return .unauthorized(code: code)
        case 403: return .forbidden(code: code)
        case 404: return .notFound(code: code)
        case 408: return .timeout
        case 409, 412:
            if code == "version_conflict" {
                return .conflict(currentVersion: problem?.currentVersion, current: problem?.current)
            }
            return .rejected(status: response.statusCode, code: code)
        case 429: return .rateLimited(retryAfter: RetryAfter.parse(response.header("Retry-After"), now: now))
        case 500...599:
            return .serverError(
                status: response.statusCode, code: code, retryAfter: RetryAfter.parse(response.header("Retry-After"), now: now))
        default: return .rejected(status: response.statusCode, code: code)
        }
    }

    /// The HTTP status behind the error, when there was one.
    public var statusCode: Int? {
        switch self {
        case .unauthorized, .sessionExpired: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .rejected(let status, _), .serverError(let status, _, _): status
        case .rateLimited: 429
        case .validation: 400
        default: nil
        }
    }

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .noConnection, .timeout, .rateLimited, .serverError: true
        default: false
        }
    }
}
