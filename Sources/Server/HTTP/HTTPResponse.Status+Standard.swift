import HTTPTypes

extension HTTPResponse.Status {
    /// The error statuses HTTPTypes names, with their standard reason phrases (RFC 9110 and its
    /// companions), by code.
    private static let namedErrors: [Int: HTTPResponse.Status] = Dictionary(
        uniqueKeysWithValues: [
            .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .notAcceptable,
            .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone, .lengthRequired,
            .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType, .rangeNotSatisfiable,
            .expectationFailed, .misdirectedRequest, .unprocessableContent, .tooEarly, .upgradeRequired,
            .preconditionRequired, .tooManyRequests, .requestHeaderFieldsTooLarge, .unavailableForLegalReasons,
            .internalServerError, .notImplemented, .badGateway, .serviceUnavailable, .gatewayTimeout,
            .httpVersionNotSupported, .networkAuthenticationRequired,
        ].map { ($0.code, $0) })

    /// The status `code` with a reason phrase that is never empty: the standard one, or the name
    /// of its class ("Client Error", "Server Error") for a code without one (a dev fault rule may
    /// name any 4xx or 5xx, such as 499).
    ///
    /// `HTTPResponse.Status(code:)` leaves the phrase empty, and a problem's `title` is the phrase.
    static func standard(code: Int) -> HTTPResponse.Status {
        if let named = namedErrors[code] { return named }
        let phrase = switch code {
        case 400..<500: "Client Error"
        case 500..<600: "Server Error"
        default: "Status \(code)"
        }
        return HTTPResponse.Status(code: code, reasonPhrase: phrase)
    }
}
