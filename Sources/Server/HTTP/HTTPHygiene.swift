import Foundation
import Hummingbird

/// The outermost middlewares, one job each, in the order they wrap every request: its id, the
/// tenant its `X-Tenant-ID` names, the access log, the metrics, the security headers, problem+json for every error, the canonical
/// path, the body size limit.
///
/// Everything inside ``ProblemMiddleware`` may throw; everything outside it sees an answer, so
/// errors, 404s and 405s get the same headers and log lines as any other response.
struct HTTPHygiene {
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
    /// Dev mode: each tenant's request journal (each entry notes the fault rule that fired and the caller).
    var journal: RequestJournal? = nil
    /// Whether the journal keeps request bodies (`--journal-bodies`).
    var journalBodies = false
    /// The server's clock, for the entries' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// Where the access log finds a known bearer token's tenant without decoding the token again.
    var verifiedTokens: VerifiedTokenCache? = nil
    /// Paths whose request body is a streamed file with its own limit (lesson media), exempt from ``maxBodySize``.
    var hasOwnBodyLimit: @Sendable (String) -> Bool = { _ in false }

    /// Adds the middlewares to `router`, before any other, as one fixed-type stack
    /// (`addMiddleware { }`): each request passes one middleware layer for the eight jobs.
    func install(on router: Router<EduGoRequestContext>) {
        let counted = metrics
        router.addMiddleware {
            RequestIDMiddleware()
            TenantHeaderMiddleware()
            AccessLogMiddleware(
                buffer: accessLog, journal: journal, journalBodyLimit: journalBodies ? maxBodySize : nil,
                now: now, verifiedTokens: verifiedTokens)
            RequestMetricsMiddleware(metrics: metrics)
            SecurityHeadersMiddleware(
                strictTransportSecurity: strictTransportSecurity, servesTLS: servesTLS,
                trustForwardedProto: trustForwardedProto)
            ProblemMiddleware(maxBodySize: maxBodySize) { problem in
                if problem.code == "rate_limited" { counted?.recordRateLimitRefusal() }
            }
            CanonicalPathMiddleware()
            BodySizeLimitMiddleware(maxBodySize: maxBodySize, hasOwnBodyLimit: hasOwnBodyLimit)
        }
    }
}
