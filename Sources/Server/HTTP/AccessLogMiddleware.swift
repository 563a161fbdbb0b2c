import Foundation
import Hummingbird
import Logging

/// Writes one redacted access-log line per request and keeps the entry in the ``AccessLogBuffer``.
///
/// Runs just inside ``RequestIDMiddleware``, so it sees the final answer (problem+json and
/// security headers included). A dev-mode fault that fired, and whether it dropped the
/// connection, reach it through the request's ``FiredFaultNote``.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let routes: RouteLabel
    /// Where each request's entry is kept (the last 500).
    var buffer: AccessLogBuffer? = nil
    /// Whether fault rules exist (dev mode), so each entry notes the one that fired.
    var notesFaults = false
    /// The server's clock, for the entries' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// Where the entry finds a known bearer token's tenant without decoding the token again.
    var verifiedTokens: VerifiedTokenCache? = nil

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        // Only a dev-mode server has fault rules that could fire: elsewhere no note is allocated.
        let firedFault = notesFaults ? FiredFaultNote() : nil
        context.firedFault = firedFault
        let response = try await next(request, context)
        // At most a valid key's 255 characters: the ring keeps 500 entries whatever clients send.
        let idempotencyKey = request.headers[.idempotencyKey].map { String($0.prefix(255)) }
        let entry = AccessLogEntry(
            timestamp: now(), requestID: context.requestID, tenant: ClaimedTenant.of(request, verified: verifiedTokens),
            method: request.method.rawValue, route: routes.label(for: context), status: Int(response.status.code),
            durationMs: (ContinuousClock.now - started).timeInterval * 1000, bytes: response.body.contentLength,
            dropped: firedFault?.dropped, fault: firedFault?.value, idempotencyKey: idempotencyKey,
            replayed: idempotencyKey.map { _ in response.headers[.idempotentReplayed] == "true" })
        // The dev console's own reads (it polls every second) are logged but not kept, so they
        // never push the application's requests out of the ring.
        if !(request.method == .get && DevHostGuard.isDevPath(request.uri.path)) {
            buffer?.append(entry)
        }
        context.logger.info("request", metadata: entry.metadata.mapValues { Logger.MetadataValue.string($0) })
        return response
    }
}
