import Foundation
import Hummingbird
import Logging

/// Writes one redacted access-log line per request, keeps the entry in the ``AccessLogBuffer``
/// and, in dev mode, in the request journal of its tenant.
///
/// Runs just inside ``RequestIDMiddleware``, so it sees the final answer (problem+json and
/// security headers included). A dev-mode fault that fired, whether it dropped the connection,
/// and the authenticated caller reach it through the request's ``RequestNotes``.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    /// Where each request's entry is kept (the last 500).
    var buffer: AccessLogBuffer? = nil
    /// Dev mode: the per-tenant journal, and each request's notes (the fault that fired, the caller).
    var journal: RequestJournal? = nil
    /// Whether the journal keeps request bodies (redacted; `--journal-bodies`), up to this many bytes.
    var journalBodyLimit: Int? = nil
    /// The server's clock, for the entries' timestamps.
    var now: @Sendable () -> Date = { Date() }
    /// Where the entry finds a known bearer token's tenant without decoding the token again.
    var verifiedTokens: VerifiedTokenCache? = nil

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var request = request
        var context = context
        // Only a dev-mode server has fault rules that could fire and a journal: elsewhere no note is allocated.
        let notes = journal == nil ? nil : RequestNotes()
        context.notes = notes
        let isDevPath = DevHostGuard.isDevPath(request.uri.path)
        let body = isDevPath ? nil : await JournalBody.kept(of: &request, limit: journalBodyLimit)
        let response = try await next(request, context)
        // At most a valid key's 255 characters: the ring keeps 500 entries whatever clients send.
        let idempotencyKey = request.headers[.idempotencyKey].map { String($0.prefix(255)) }
        let caller = notes?.caller
        var entry = AccessLogEntry(
            timestamp: now(), requestID: context.requestID,
            tenant: caller?.tenant ?? ClaimedTenant.of(request, named: context.namedTenant, verified: verifiedTokens),
            method: request.method.rawValue, route: context.routeLabel, status: Int(response.status.code),
            durationMs: (ContinuousClock.now - started).timeInterval * 1000, bytes: response.body.contentLength,
            dropped: notes?.dropped, fault: notes?.fault, idempotencyKey: idempotencyKey,
            replayed: idempotencyKey.map { _ in response.headers[.idempotentReplayed] == "true" })
        if let journal, !isDevPath, let tenant = entry.tenant {
            entry.path = String(request.uri.path.prefix(2048))
            entry.userID = caller?.userID
            entry.email = caller?.email
            entry.role = caller?.role
            entry.impersonated = caller?.impersonated == true ? true : nil
            entry.ifMatch = request.headers[.ifMatch].map { String($0.prefix(255)) }
            entry.body = body
            journal.append(entry, tenant: tenant)
            entry = entry.withoutJournalDetails
        }
        // The dev console's own reads (it polls every second) are logged but not kept, so they
        // never push the application's requests out of the ring.
        if !(request.method == .get && isDevPath) {
            buffer?.append(entry)
        }
        context.logger.info("request", metadata: entry.metadata.mapValues { Logger.MetadataValue.string($0) })
        return response
    }
}
