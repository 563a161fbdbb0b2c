import Foundation

/// Pulling the change feed, and the refreshes reads ask for.
extension SyncEngine {
    /// What one pull did, and why it stopped short if it did.
    struct PullResult: Sendable {
        var pulled = 0
        var applied = 0
        var baseSync = false
        var reset: SyncReset?
        var error: SyncError?
    }

    /// Whether the live change stream is open now.
    public nonisolated var isLiveStreamHeld: Bool { streamHeld.current == true }

    /// The changes made elsewhere, as each pull applies them to the store: one element per page
    /// (a base sync's whole snapshot is one). Each call returns a new stream, which keeps the
    /// newest 32 elements when it is not read fast enough; the store stays the source of truth.
    public nonisolated func remoteChanges() -> AsyncStream<[RemoteChange]> {
        appliedChanges.subscribe()
    }

    /// A pull that starts after this call: one under way may have read its pages before the
    /// change the caller heard of, so it is waited for and then another runs.
    func pullStartingNow() async -> PullResult {
        if pulling { _ = await withCheckedContinuation { pullJoiners.append($0) } }
        return await pull()
    }

    /// Pulls every ``APIConfiguration/fallbackPullInterval`` while the server is reachable but the
    /// live stream is not held.
    func fallbackPullLoop() async {
        let interval = client.configuration.fallbackPullInterval
        while !Task.isCancelled {
            do {
                try await environment.sleep(interval)
            } catch {
                return
            }
            if monitor.isConnected, !isLiveStreamHeld { _ = await pull() }
        }
    }

    /// Pulls the server's changes since the store's cursor until nothing more waits (joining a
    /// pull already under way), applying each page in one store transaction.
    func pull() async -> PullResult {
        if pulling {
            return await withCheckedContinuation { pullJoiners.append($0) }
        }
        pulling = true
        let result = await performPull()
        pulling = false
        let waiting = pullJoiners
        pullJoiners = []
        for joiner in waiting { joiner.resume(returning: result) }
        return result
    }

    func performPull() async -> PullResult {
        var result = PullResult()
        do {
            let outcome = try await puller().pull()
            result.pulled = outcome.pulled
            result.applied = outcome.applied
            result.baseSync = outcome.baseSync
            result.reset = outcome.reset
            await pullFinished(reset: outcome.reset)
            if let reset = outcome.reset { unreportedReset = reset }
        } catch {
            let reason = Puller.syncError(error)
            result.error = reason
            // The session ending is the app's business whichever request found it (on a quiet
            // device, a pull's): the status says so until the user signs in again.
            if reason == .signedOut {
                statusBroadcaster.update { status in
                    status.error = .signedOut
                    status.lastError = SyncError.signedOut.description
                }
            }
        }
        return result
    }

    /// Asks the background loop to fetch `job` again (when online); deduplicated.
    public nonisolated func requestRefresh(_ job: RefreshJob) {
        refreshes.add(job)
    }

    /// Fetches `job` now, as a read does: briefly (``APIConfiguration/readRefresh``), storing
    /// the server's answer.
    ///
    /// When the server cannot answer well — unreachable, 5xx, 429, too slow — the store is left
    /// as it was and the reason is returned (and reported by ``staleReason(for:)`` until a
    /// refresh of `job` succeeds), so the read answers from the store and says why.
    ///
    /// - Returns: `nil` when the store now holds the server's answer, else why it does not.
    /// - Throws: answers the caller must act on keep their meaning: ``NetworkError/unauthorized(code:)``
    ///   and ``NetworkError/sessionExpired``, ``NetworkError/forbidden(code:)`` (cached data the
    ///   user may no longer see is not served), ``NetworkError/notFound(code:)`` (a course the
    ///   server no longer has is removed from the local view first).
    @discardableResult
    public func refresh(_ job: RefreshJob) async throws -> StaleReason? {
        if job.isInChangeFeed { return try await refreshByPull([job]) }
        let refresher = Refresher(
            client: client, store: store, cache: cache, now: environment.now,
            limits: CallLimits(read: client.configuration.readRefresh, now: environment.now()))
        do {
            if let courseID = job.courseID { try await refresher.perform(courseID: courseID) }
            staleReasons[job] = nil
            return nil
        } catch let error as NetworkError {
            if let reason = StaleReason(error) {
                staleReasons[job] = reason
                return reason
            }
            if case .notFound = error, let courseID = job.courseID {
                try await refresher.forget(courseID: courseID)
                staleReasons[job] = nil
            }
            throw error
        }
    }

    /// Why the cached data of `job` may be stale: its last refresh's failure, or ``StaleReason/offline``
    /// while the server is known to be unreachable; `nil` when nothing is known to be wrong.
    public func staleReason(for job: RefreshJob) -> StaleReason? {
        staleReasons[job] ?? (monitor.isConnected ? nil : .offline)
    }

    /// Pulls the change feed for `jobs`, within a read's limits; their stale reasons follow the pull.
    func refreshByPull(_ jobs: [RefreshJob]) async throws -> StaleReason? {
        do {
            let outcome = try await puller(limits: CallLimits(read: client.configuration.readRefresh, now: environment.now())).pull()
            await pullFinished(reset: outcome.reset)
            return nil
        } catch let error as NetworkError {
            guard let reason = StaleReason(error) else { throw error }
            for job in jobs { staleReasons[job] = reason }
            return reason
        }
    }

    /// A puller of this store, within `limits` (a read's), or the client's own policy when `nil`.
    func puller(limits: CallLimits? = nil) -> Puller {
        var puller = Puller(client: client, store: store, now: environment.now, pageSize: pullPageSize, limits: limits)
        puller.applied = { [appliedChanges] in appliedChanges.emit($0) }
        puller.policy = policy
        return puller
    }

    /// A pull reached the end of the feed: every value the feed carries is now the server's, so
    /// no read of one is stale any more, whichever pull or refresh failed before (a read must not
    /// say `staleReason` of a value the server just confirmed).
    /// A `reset` the pull went through (a changed timeline) is the status's last reset, and the
    /// counts are read again (a reset may have parked queued writes as conflicts).
    func pullFinished(reset: SyncReset?) async {
        let finishedAt = environment.now()
        statusBroadcaster.update { status in
            status.lastPullAt = finishedAt
            if let reset { status.lastReset = reset }
        }
        staleReasons = staleReasons.filter { !$0.key.isInChangeFeed }
        feedConfirmedAt = finishedAt
        if reset != nil { await refreshStatus() }
    }

    /// The background refreshes reads asked for: one pull for every job the change feed carries
    /// (none when a pull finished less than ``minimumPullInterval`` ago), then the others.
    func performRefreshes() async {
        let jobs = refreshes.takeAll()
        let pulled = jobs.filter(\.isInChangeFeed)
        let recent = status.lastPullAt.map { environment.now().timeIntervalSince($0) < minimumPullInterval } ?? false
        if !pulled.isEmpty, !recent {
            _ = try? await refreshByPull(Array(pulled))
        }
        for job in jobs where !job.isInChangeFeed {
            _ = try? await refresh(job)
        }
    }
}
