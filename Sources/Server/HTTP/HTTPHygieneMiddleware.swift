import EduGoServerStore
import Foundation
import Hummingbird
import Logging
import NIOHTTP1

/// The outermost middleware: request ids, canonical paths, the body size limit, problem+json for every error,
/// security headers on every response, and one redacted access-log line.
struct HTTPHygieneMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    /// The served path templates: a request matched none of them is logged as `unmatched`.
    let routeTemplates: Set<String>
    let maxBodySize: Int
    let strictTransportSecurity: String?
    /// Whether the server itself speaks TLS on every connection (`--tls-cert` or `--tls-dev`).
    var servesTLS = false
    /// Whether `X-Forwarded-Proto: https` (from a TLS-terminating proxy) counts as TLS.
    var trustForwardedProto = false
    /// Where each request's access-log entry is kept (the last 500).
    var accessLog: AccessLogBuffer? = nil
    /// Request counts and latencies, rate-limit refusals and idempotent replays.
    var metrics: ServerMetrics? = nil
    /// Whether fault rules exist (dev mode), so each entry notes the one that fired.
    var notesFaults = false
    /// The server's clock, for the entries' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// Where the access log finds a known bearer token's tenant without decoding the token again.
    var verifiedTokens: VerifiedTokenCache? = nil
    /// Paths whose request body is a streamed file with its own limit (lesson media), exempt from ``maxBodySize``.
    var hasOwnBodyLimit: @Sendable (String) -> Bool = { _ in false }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        context.requestID = Self.requestID(from: request)
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        // Only a dev-mode server has fault rules that could fire: elsewhere no note is allocated.
        let firedFault = notesFaults ? FiredFaultNote() : nil
        context.firedFault = firedFault

        var response: Response
        do {
            // Before every path-based check inside (dev perimeter, fault exemption, body limits):
            // each of them, and the access log below, then sees the path the router matches.
            guard RequestPath.isCanonical(request.uri.path) else { throw APIError.nonCanonicalPath }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize,
                !hasOwnBodyLimit(request.uri.path)
            {
                throw APIError.payloadTooLarge(limit: maxBodySize)
            }
            response = try await next(request, context)
        } catch {
            let apiError = self.apiError(for: error, request: request, context: context)
            if apiError.code == "rate_limited" { metrics?.recordRateLimitRefusal() }
            response = Self.problemResponse(apiError, path: request.uri.path, requestID: context.requestID)
        }
        applySecurityHeaders(to: &response, requestID: context.requestID, overTLS: isOverTLS(request))
        let dropped = response.headers[.xEduGoDropped]
        response.headers[.xEduGoDropped] = nil
        let elapsed = ContinuousClock.now - started
        // The route template only, never the raw path: paths carry ids and query strings carry
        // verification and reset tokens.
        let route = context.endpointPath.flatMap { routeTemplates.contains($0) ? $0 : nil } ?? "unmatched"
        let entry = AccessLogEntry(
            timestamp: now(), requestID: context.requestID, tenant: ClaimedTenant.of(request, verified: verifiedTokens),
            method: request.method.rawValue, route: route, status: Int(response.status.code),
            durationMs: elapsed.timeInterval * 1000, bytes: response.body.contentLength, dropped: dropped,
            fault: firedFault?.value)
        // The dev console's own reads (it polls every second) are logged but not kept, so they
        // never push the application's requests out of the ring.
        if !(request.method == .get && DevHostGuard.isDevPath(request.uri.path)) {
            accessLog?.append(entry)
        }
        if let metrics {
            metrics.recordRequest(method: entry.method, route: route, status: entry.status, duration: elapsed)
            if response.headers[.idempotentReplayed] == "true" { metrics.recordIdempotentReplay() }
        }
        context.logger.info("request", metadata: entry.metadata.mapValues { Logger.MetadataValue.string($0) })
        return response
    }

    private func apiError(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as StoreError:
            return APIError(error)
        case let error as HTTPError where error.status == .notFound:
            return .notFound()
        // A body the HTTP/1 parser cannot read (an invalid chunk size line, say) surfaces where a
        // handler reads the body. The parser stops at its error, so the connection ends after
        // this answer: Hummingbird finds the body stream finished and closes it.
        case is HTTPParserError:
            return .malformedRequest
        // Not only HTTPError: a streamed body that outgrows `collectBody(upTo:)` throws NIO's
        // NIOTooManyBytesError, which Hummingbird makes an HTTPResponseError with status 413.
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return .payloadTooLarge(limit: maxBodySize)
        case let error as any HTTPResponseError where error.status.code < 500:
            return APIError(error.status, code: Self.code(for: error.status), detail: error.status.reasonPhrase)
        default:
            context.logger.error("unhandled error", metadata: ["error_type": .string(String(describing: type(of: error)))])
            return .internalError
        }
    }

    /// Documented codes for the client errors Hummingbird itself may raise.
    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .contentTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        default: "bad_request"
        }
    }

    static func problemResponse(_ error: APIError, path: String, requestID: String) -> Response {
        let problem = ProblemDetails(error: error, instance: path, requestID: requestID)
        let data = (try? APICoding.encoder.encode(problem)) ?? Data(#"{"code":"internal_error"}"#.utf8)
        var headers = error.headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// HSTS means something only over HTTPS: a server with TLS of its own speaks it on every
    /// connection; otherwise only a trusted proxy's `X-Forwarded-Proto: https` counts. The
    /// request's own scheme does not: a plain-HTTP client can write `https://` in its target.
    private func isOverTLS(_ request: Request) -> Bool {
        if servesTLS { return true }
        guard trustForwardedProto, let proto = request.headers[.xForwardedProto] else { return false }
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    private func applySecurityHeaders(to response: inout Response, requestID: String, overTLS: Bool) {
        response.headers[.xRequestID] = requestID
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        // The dev console's page and assets carry their own policy (scripts and styles from
        // 'self'); every other response gets the API's.
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
        }
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        if overTLS, let strictTransportSecurity {
            response.headers[.strictTransportSecurity] = strictTransportSecurity
        } else {
            response.headers[.strictTransportSecurity] = nil
        }
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        response.headers[.server] = nil
    }

    /// Echoes a well-formed client request id, otherwise generates one.
    static func requestID(from request: Request) -> String {
        if let supplied = request.headers[.xRequestID], (1...128).contains(supplied.count),
            supplied.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        {
            return supplied
        }
        return RecordID.make()
    }
}

extension APIError {
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "payload_too_large", detail: "The request body exceeds \(limit) bytes.")
    }
}
