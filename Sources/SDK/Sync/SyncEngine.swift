import Foundation

/// Replays the outbox against the server and keeps the app told about it.
///
/// Its ``run()`` is the background work: the owner awaits it (or cancels the task running it).
/// It drains at start, whenever the connection comes back, whenever a write is enqueued while
/// online, and when delayed retries fall due. ``syncNow()`` drains at once and reports.
///
/// Per item, the server's answer decides (`OutboxDecision`): 2xx — done; 409/412 — the
/// ``ConflictPolicy``; 400/403/404/422 — dead letter with the server's problem; 408/429/5xx, 409
/// `idempotency_in_progress` or no answer — retried later with backoff and `Retry-After`; 401 — the
/// drain stops and the writes wait for the user; an item older than the `staleAfter` interval
/// becomes a dead letter (`stale`) instead of vanishing. Progress in a course waits for a queued
/// enrollment in it.
public actor SyncEngine {
    /// The session's queue of writes: its pending items, dead letters and parked conflicts.
    public let outbox: Outbox
    /// Whether the server is reachable; a drain starts whenever it comes back.
    public let monitor: ConnectivityMonitor
    /// The session's HTTP response cache (refreshes revalidate through it).
    public let cache: ResponseCache
    let client: APIClient
    let store: OfflineStore
    let policy: ConflictPolicy
    let environment: SDKEnvironment
    let staleAfter: TimeInterval
    let parallelResources: Int
    private let statusBroadcaster = Broadcaster(SyncStatus())
    private let kicks = Broadcaster<Int>(0)
    /// This engine's name on the store's drain lease (one drainer per store, across processes).
    private let drainerID = UUID().uuidString
    /// How long a drain lease lasts unless renewed (by every claim): a drainer that died holds
    /// the store no longer than this.
    static let drainLease: TimeInterval = 120
    /// Whether a drain is under way, and the callers waiting for its report.
    private var draining = false
    private var joiners: [CheckedContinuation<SyncReport, Never>] = []
    /// The last reset a pull made that no ``syncNow()`` report has told yet.
    private var unreportedReset: SyncReset?
    /// Whether a pull is under way, and the callers waiting for its result.
    private var pulling = false
    private var pullJoiners: [CheckedContinuation<PullResult, Never>] = []
    /// Changes per pull request.
    let pullPageSize: Int
    private let refreshes = RefreshQueue()
    /// Whether the live change stream is open now (the periodic pull waits while it is).
    private let streamHeld = Broadcaster(false)
    /// The changes each pull applied.
    private let appliedChanges = Broadcaster<[RemoteChange]>()
    /// Why each job's last refresh failed, until one succeeds.
    private var staleReasons: [RefreshJob: StaleReason] = [:]
    /// When a pull of this session last reached the end of the feed: everything the feed carries
    /// was the server's then, even what it did not send again.
    private var feedConfirmedAt: Date?

    /// Made by ``EduGoClient`` for each session; not public API (`@_spi(EduGoInternals)`, for the benchmarks).
    @_spi(EduGoInternals) public init(
        client: APIClient, store: OfflineStore, monitor: ConnectivityMonitor, cache: ResponseCache,
        policy: ConflictPolicy = ConflictPolicy(), environment: SDKEnvironment = .live,
        staleAfter: Duration = .seconds(24 * 3600), parallelResources: Int = 16, pullPageSize: Int = 500
    ) {
        self.pullPageSize = pullPageSize
        self.client = client
        self.cache = cache
        self.store = store
        self.monitor = monitor
        self.policy = policy
        self.environment = environment
        self.staleAfter = Double(staleAfter.components.seconds)
        self.parallelResources = max(1, parallelResources)
        self.outbox = Outbox(store: store, now: environment.now)
        self.openedAt = environment.now()
        Self.followSession(of: client, userID: store.userID, into: statusBroadcaster)
    }

    /// Keeps `status.error` at ``SyncError/signedOut`` from the moment the server ends the session
    /// (whichever request found it: a drain, a pull, a read's refresh, a download), or its user
    /// signs out (a session the app still holds then says so), until `userID`
    /// signs in again on the same client. The client's session events are observed synchronously
    /// (no task), for as long as the engine's status exists.
    private static func followSession(of client: APIClient, userID: String, into status: Broadcaster<SyncStatus>) {
        client.events.observe { [weak status] event in
            guard let status else { return false }
            switch event {
            case .sessionExpired, .signedOut:
                status.update { status in
                    status.error = .signedOut
                    status.lastError = SyncError.signedOut.description
                }
            case .signedIn(let signedIn) where signedIn == userID:
                status.update { status in
                    guard status.error == .signedOut else { return }
                    status.error = nil
                    status.lastError = nil
                }
            default:
                break
            }
            return true
        }
    }

    /// When this engine (its session) started: data fetched before it came from an earlier run.
    nonisolated let openedAt: Date

    /// `value` marked with why `job`'s last refresh failed, if it did, and whether the server
    /// confirmed it since the session opened.
    func marked<Value>(_ value: Cached<Value>, for job: RefreshJob) -> Cached<Value> {
        value.marked(staleReason(for: job), openedAt: openedAt, confirmedAt: job.isInChangeFeed ? feedConfirmedAt : nil)
    }

    // MARK: Status

    /// The current status, then every change.
    public nonisolated func statusUpdates() -> AsyncStream<SyncStatus> {
        statusBroadcaster.subscribe()
    }

    /// The status as last published: connection, counts, whether a drain runs, its last error.
    public nonisolated var status: SyncStatus { statusBroadcaster.current ?? SyncStatus() }

    /// Recounts the outbox, dead letters and conflicts and publishes the status.
    public func refreshStatus() async {
        publish(try? await store.outboxCounts())
    }

    /// Publishes `counts` (when the store could count) and the connection as the status.
    private func publish(_ counts: OfflineStore.OutboxCounts?) {
        let now = environment.now()
        let connected = monitor.isConnected
        statusBroadcaster.update { status in
            status.isConnected = connected
            guard let counts else { return }
            status.pendingCount = counts.pending
            status.oldestPendingAge = counts.oldestPendingAt.map { now.timeIntervalSince($0) }
            status.deadLetterCount = counts.deadLetters
            status.conflictCount = counts.conflicts
            status.lastSyncAt = counts.lastSyncAt
        }
    }

    /// Queues a repository's `write` on the resource's cached server state, publishes the new
    /// counts and asks for a drain: one store transaction.
    func record(_ write: PendingWrite) async throws {
        let counts = try await outbox.record(write, policy: policy)
        publish(counts)
        writeEnqueued()
    }

    // MARK: Running

    /// Drains at start and then whenever there is reason to, until cancelled. Also runs the
    /// connectivity monitor's probe loop.
    ///
    /// Its drains run inside it: cancelling the task that runs it stops a drain under way once the
    /// request in flight has its answer; the writes not yet sent stay queued, untouched.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.monitor.run() }
            group.addTask {
                for await connected in self.monitor.updates() {
                    await self.refreshStatus()
                    if connected { _ = await self.drain() }
                }
            }
            group.addTask {
                for await _ in self.kicks.subscribe() where self.monitor.isConnected {
                    _ = await self.drain()
                }
            }
            group.addTask { await self.retryLoop() }
            group.addTask {
                for await _ in self.refreshes.ticks.subscribe() where self.monitor.isConnected {
                    await self.performRefreshes()
                }
            }
            if client.configuration.liveUpdates {
                let stream = ChangeStream(
                    client: client, userID: store.userID, monitor: monitor, environment: environment, held: streamHeld)
                group.addTask { await stream.run { _ = await self.pullStartingNow() } }
                group.addTask { await self.fallbackPullLoop() }
            }
            await group.waitForAll()
        }
    }

    /// Syncs both ways now: drains the outbox (waiting for a drain already under way), then pulls
    /// what changed on the server since this store's cursor, and reports both. While another
    /// engine or process drains the same store it sends nothing (`lastError` says so).
    ///
    /// Unlike the background drains it does not wait for items' retry delays: the caller asked now.
    @discardableResult
    public func syncNow() async -> SyncReport {
        var report = await drain(ignoringRetryDelays: true)
        if let reason = status.error, !Self.pullMayFollow(reason) {
            report.pullError = reason
            return report
        }
        let pull = await pull()
        report.pulled = pull.pulled
        report.applied = pull.applied
        report.baseSync = pull.baseSync
        // A reset may have come with the pull a drain makes first: the report says it either way.
        report.reset = pull.reset ?? unreportedReset
        unreportedReset = nil
        report.pullError = pull.error
        return report
    }

    /// Whether a pull is worth trying after a drain that stopped for `reason`: not when the server
    /// is unreachable or untrusted, the session is gone, the sync was cancelled or the store failed
    /// (the pull would meet the same end); yes after a refused or postponed write.
    static func pullMayFollow(_ reason: SyncError) -> Bool {
        switch reason {
        case .offline, .signedOut, .cancelled, .store, .pinningFailed, .untrustedCertificate: false
        case .busy, .serverStatus, .idempotencyInProgress, .progressUnavailable, .transport: true
        }
    }

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
    private func fallbackPullLoop() async {
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

    private func performPull() async -> PullResult {
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
    private func refreshByPull(_ jobs: [RefreshJob]) async throws -> StaleReason? {
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
    private func puller(limits: CallLimits? = nil) -> Puller {
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
    private func pullFinished(reset: SyncReset?) async {
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
    private func performRefreshes() async {
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

    /// How long a finished pull answers the reads that ask for a refresh before another is sent.
    let minimumPullInterval: TimeInterval = 5

    /// Tells the engine a write was enqueued, so it drains when online.
    public nonisolated func writeEnqueued() {
        kicks.update { $0 += 1 }
    }

    private func retryLoop() async {
        while !Task.isCancelled {
            let next = try? await store.nextRetryDate()
            let wait: TimeInterval = next.flatMap { $0 }.map { max(0.05, $0.timeIntervalSince(environment.now())) } ?? 30
            do {
                try await environment.sleep(.milliseconds(Int(min(wait, 30) * 1000)))
            } catch {
                return
            }
            if monitor.isConnected, (try? await hasDueItems()) == true { _ = await drain() }
        }
    }

    private func hasDueItems() async throws -> Bool {
        try await !store.dueQueues(now: environment.now()).isEmpty
    }

    /// Drains in the caller's task (so cancelling the task — ``run()``'s, when the drain is one of
    /// its children — stops the drain after the request in flight), or, while another caller's
    /// drain is under way, waits for that drain's report.
    func drain(ignoringRetryDelays: Bool = false) async -> SyncReport {
        if draining {
            return await withCheckedContinuation { joiners.append($0) }
        }
        draining = true
        let report = await performDrain(ignoringRetryDelays: ignoringRetryDelays)
        draining = false
        let waiting = joiners
        joiners = []
        for joiner in waiting { joiner.resume(returning: report) }
        return report
    }

    private func performDrain(ignoringRetryDelays: Bool) async -> SyncReport {
        statusBroadcaster.update { $0.isSyncing = true }
        // A write based on a version is only meaningful on the history that version belongs to.
        // Without the live stream (which says `reset` when the server's data is replaced) one
        // feed request from the stored cursor finds out first; only on `timeline_changed` does a
        // pull follow before the drain (a reset that reconciles the outbox), so no write is sent
        // on top of a state its user never saw. Otherwise the drain goes first, as always: its
        // conflicts are settled by their rules, not by a pull rebasing them. (A store that never
        // pulled has no timeline to be wrong about.)
        if !isLiveStreamHeld, (try? await store.hasPendingVersionedWrites()) == true {
            let probe = Puller(client: client, store: store, now: environment.now, pageSize: 1)
            if await probe.timelineChanged() { _ = await pull() }
        }
        var machine = DrainStateMachine()
        var leased = false
        while !Task.isCancelled {
            let now = ignoringRetryDelays ? Date.distantFuture : environment.now()
            // Items of one resource go in order; different resources go side by side.
            let due: [(resource: ResourceKey, items: [OutboxItem])]
            do {
                due = try await store.dueQueues(now: now, excluding: machine.waiting)
            } catch {
                // The outbox could not be listed: say so, never report a sync that did not happen.
                machine.storeFailed()
                break
            }
            guard !due.isEmpty else {
                machine.nothingDue()
                break
            }
            machine.roundStarted()
            let processor = OutboxProcessor(
                client: client, store: store, cache: cache, policy: policy, environment: environment, staleAfter: staleAfter,
                drainer: drainerID, resendsExhausted: machine.resendsExhausted)
            // One drainer per store, across processes: every claim takes or renews the lease in
            // its own step, and a drain whose lease another drainer holds halts (`busy`).
            leased = true
            // Up to `parallelResources` queues at a time, the next one starting as soon as one
            // finishes. After a halt or a cancellation no queue starts, and those already in
            // flight finish their request and are counted.
            let halted = await withTaskGroup(of: (resource: ResourceKey, items: [OutboxItem], outcomes: [OutboxProcessor.Outcome]).self) { group -> Bool in
                var queues = due.makeIterator()
                var stopping = false
                var inFlight = 0
                while true {
                    while !stopping, inFlight < parallelResources, let queue = queues.next() {
                        if Task.isCancelled {
                            machine.cancelled()
                            stopping = true
                            break
                        }
                        group.addTask { (queue.resource, queue.items, await processor.process(queue.items)) }
                        inFlight += 1
                    }
                    guard let finished = await group.next() else { return stopping }
                    inFlight -= 1
                    if machine.queueFinished(finished.resource, items: finished.items, outcomes: finished.outcomes) == .stop {
                        stopping = true
                    }
                }
            }
            if halted { break }
            if machine.roundFinished() == .stop { break }
        }
        if leased { try? store.releaseDrainLease(owner: drainerID) }
        var report = machine.report
        report.remaining = (try? store.pendingCountNow()) ?? 0
        let finishedAt = environment.now()
        // The session's end is the session events' to tell (``followSession``: set when a request
        // finds it, cleared by a sign-in): a drain that met another error (a timeout on a request
        // sent before the end was found) or none (nothing to send) leaves it as it is.
        let error: SyncError? = statusBroadcaster.update { status -> SyncError? in
            status.isSyncing = false
            status.error = status.error == .signedOut ? .signedOut : machine.lastError
            status.lastError = status.error?.description
            return status.error
        } ?? nil
        // The store keeps the last sync time; the status is read from it.
        if error == nil {
            try? await Preferences(store: store).set(lastSyncDate: finishedAt)
        }
        await refreshStatus()
        return report
    }
}
