import Foundation

/// Pulls the server's change feed from the store's cursor until nothing more waits, applying each
/// page with its cursor in one store transaction.
///
/// Without a stored cursor, or when the server answers `410 cursor_expired`, it does a base sync:
/// every page up to the end of the snapshot is gathered and applied in one transaction that
/// replaces the cached entities (the outbox, dead letters and conflicts are untouched), so an
/// observer sees the old state or the new one, once.
struct Puller: Sendable {
    let client: APIClient
    let store: OfflineStore
    let now: @Sendable () -> Date
    /// Changes per request (the server allows up to 1,000).
    var pageSize = 500
    /// Retries and time budget of each request (a read's, when a read asked for the pull); the
    /// client's own policy when `nil`.
    var limits: CallLimits?
    /// How conflicts settle: a pulled state rebases the unsent writes of a resource that merges.
    var policy = ConflictPolicy()
    /// Told the changes of every page (or whole base sync) once the store has applied them.
    var applied: @Sendable ([RemoteChange]) -> Void = { _ in }

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
    }

    private func announce(_ changes: [PulledChange]) {
        let announced = changes.compactMap(\.announced)
        if !announced.isEmpty { applied(announced) }
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
        while true {
            try Task.checkCancellation()
            let page: ChangePage
            do {
                outcome.requests += 1
                page = try await client.executeWithMetadata(
                    endpoint: .Sync.changes(cursor: cursor, limit: pageSize), limits: limits, asUser: store.userID
                ).value
            } catch NetworkError.rejected(status: 410, _) where base == nil {
                // Too far behind: start over from a base sync, replacing the cache in one step.
                base = []
                cursor = nil
                continue
            }
            outcome.pulled += page.changes.count
            if base != nil {
                base?.append(contentsOf: page.changes)
                cursor = page.cursor
                if page.baseContinues { continue }
                outcome.baseSync = true
                guard let applied = try await store.applyPull(
                    base ?? [], after: stored, cursor: page.cursor, replacing: true, finished: !page.hasMore, at: now(),
                    policy: policy)
                else { return outcome }
                outcome.applied += applied
                announce(base ?? [])
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
