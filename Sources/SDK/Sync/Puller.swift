import Foundation

/// Pulls the server's change feed from the store's cursor until nothing more waits, applying each
/// page with its cursor in one store transaction.
///
/// Without a stored cursor, or when the server answers `410 cursor_expired`, it does a base sync:
/// every page up to the end of the snapshot is gathered and applied in one transaction that
/// replaces the cached entities (the outbox, dead letters and conflicts are kept), so an
/// observer sees the old state or the new one, once. A `410` whose reason is `timeline_changed`
/// (the server's data was replaced: a snapshot restore, an import) is a reset: the same
/// transaction reconciles the outbox's writes with the new state (``SyncReset``).
struct Puller: Sendable {
    let client: APIClient
    let store: OfflineStore
    let now: @Sendable () -> Date
    /// Changes per request (the server allows up to 1,000).
    var pageSize = 500
    /// Retries and time budget of each request (a read's, when a read asked for the pull); the
    /// client's own policy when `nil`.
    var limits: CallLimits?
    /// Told the changes of every page (or whole base sync) once the store has applied them.
    var applied: @Sendable ([RemoteChange]) -> Void = { _ in }

    /// The app's conflict policy: a pulled state rebases the unsent writes of a resource that
    /// merges by its rule; after a reset, a queued write whose base is gone is settled by its
    /// resource's strategy (a resend rebases it; anything else parks it for the user).
    var policy = ConflictPolicy()

    /// How many times one pull starts a base sync over when the server's data is replaced while it
    /// pages, before it gives up (the next pull starts again).
    static let baseRestartLimit = 3

    /// What one pull did.
    struct Outcome: Sendable, Equatable {
        /// Changes the server sent.
        var pulled = 0
        /// Cached entities written or removed.
        var applied = 0
        /// Requests sent.
        var requests = 0
        /// Whether it started from nothing (no cursor, or an expired one).
        var baseSync = false
        /// Set when the server refused the stored cursor (`410 cursor_expired`): why, and what the
        /// base sync that followed did.
        var reset: SyncReset?
    }

    private func announce(_ changes: [PulledChange]) {
        let announced = changes.compactMap(\.announced)
        if !announced.isEmpty { applied(announced) }
    }

    /// What one request of the feed answered.
    private enum Answer {
        case page(ChangePage)
        /// `410 cursor_expired`, with the problem's `reason`.
        case expired(SyncReset.Reason)
    }

    /// Pulls until the server says nothing more waits.
    ///
    /// - Throws: ``NetworkError`` when the server cannot be reached or refuses; the store keeps
    ///   every page applied before the failure.
    func pull() async throws -> Outcome {
        var outcome = Outcome()
        var stored = try await store.syncCursor()
        var cursor = stored
        var base: [PulledChange]? = stored == nil ? [] : nil
        var resetReason: SyncReset.Reason?
        var restarts = 0
        while true {
            try Task.checkCancellation()
            outcome.requests += 1
            let page: ChangePage
            switch try await fetch(after: cursor) {
            case .page(let answered):
                page = answered
            case .expired(let reason):
                if base != nil {
                    // The data was replaced again while the base sync paged (a restore between two
                    // of its pages): its pages are of a history that no longer exists. Start over,
                    // a few times at most.
                    restarts += 1
                    guard restarts <= Self.baseRestartLimit else { throw NetworkError.rejected(status: 410, code: "cursor_expired") }
                }
                // The stored position can no longer be read from: start over from a base sync,
                // replacing the cache in one step. A device that held data resets; one whose
                // first base sync started over has nothing to reset.
                base = []
                cursor = nil
                if stored != nil, resetReason != .timelineChanged { resetReason = reason }
                continue
            }
            outcome.pulled += page.changes.count
            if base != nil {
                base?.append(contentsOf: page.changes)
                cursor = page.cursor
                if page.baseContinues { continue }
                outcome.baseSync = true
                if resetReason == .timelineChanged {
                    guard let reset = try await applyReset(base ?? [], after: stored, page: page, into: &outcome) else { return outcome }
                    if !reset.changed.isEmpty { applied(reset.changed) }
                } else {
                    guard let applied = try await store.applyPull(
                        base ?? [], after: stored, cursor: page.cursor, replacing: true, finished: !page.hasMore, at: now(),
                        policy: policy)
                    else { return outcome }
                    outcome.applied += applied
                    if let resetReason { outcome.reset = SyncReset(reason: resetReason, resynced: applied) }
                    announce(base ?? [])
                }
                base = nil
            } else {
                guard let applied = try await store.applyPull(
                    page.changes, after: stored, cursor: page.cursor, replacing: false, finished: !page.hasMore, at: now(),
                    policy: policy)
                else { return outcome }
                outcome.applied += applied
                announce(page.changes)
            }
            stored = page.cursor
            cursor = page.cursor
            if !page.hasMore { return outcome }
        }
    }

    /// Applies a base sync of a new timeline: the cache replaced and the outbox reconciled in one
    /// store transaction (``OfflineStore/applyReset(_:after:cursor:finished:at:resolve:)``).
    private func applyReset(
        _ changes: [PulledChange], after stored: String?, page: ChangePage, into outcome: inout Outcome
    ) async throws -> OfflineStore.ResetOutcome? {
        let policy = policy
        guard let reset = try await store.applyReset(
            changes, after: stored, cursor: page.cursor, finished: !page.hasMore, at: now(),
            resolve: { item, serverVersion, serverJson in
                ConflictResolver.resolve(
                    strategy: policy.strategy(for: item.resource), resource: item.resource, base: item.baseJson, local: item.body,
                    server: serverJson, serverVersion: serverVersion ?? 0)
            })
        else { return nil }
        outcome.applied += reset.applied
        outcome.reset = SyncReset(
            reason: .timelineChanged, resynced: reset.changed.count, rebased: reset.rebased, needsAttention: reset.parked)
        return reset
    }

    /// Whether the server answers the stored cursor with `410` `timeline_changed`: one request,
    /// whose page (when it answers one) is not applied. `false` without a stored cursor, or when
    /// the server cannot be asked.
    func timelineChanged() async -> Bool {
        guard let stored = try? await store.syncCursor(), case .expired(.timelineChanged)? = try? await fetch(after: stored)
        else { return false }
        return true
    }

    /// One request of the feed after `cursor`.
    private func fetch(after cursor: String?) async throws -> Answer {
        let response = try await client.send(
            endpoint: .Sync.changes(cursor: cursor, limit: pageSize), limits: limits, asUser: store.userID)
        if response.statusCode == 410 {
            let problem = ProblemDetails.decode(response.body)
            return .expired(problem?.reason.flatMap(SyncReset.Reason.init(rawValue:)) ?? .other)
        }
        guard response.isSuccess else { throw NetworkError.from(response: response, now: now()) }
        do {
            return .page(try JSONCoding.decoder.decode(ChangePage.self, from: response.body))
        } catch {
            throw NetworkError.decodingError(String(describing: error))
        }
    }
}

extension Puller {
    /// Why a pull stopped short, as the sync status says it.
    static func syncError(_ error: any Error) -> SyncError {
        guard let error = error as? NetworkError else {
            return error is CancellationError ? .cancelled : .store
        }
        switch error {
        case .noConnection, .timeout: return .offline
        case .unauthorized, .sessionExpired: return .signedOut
        case .pinningFailed(let host): return .pinningFailed(host: host)
        case .untrustedCertificate(let host): return .untrustedCertificate(host: host)
        case .cancelled: return .cancelled
        case .rateLimited: return .serverStatus(429)
        case .serverError(let status, _, _), .rejected(let status, _): return .serverStatus(status)
        default: return .transport("\(error)")
        }
    }
}
