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
    let statusBroadcaster = Broadcaster(SyncStatus())
    let kicks = Broadcaster<Int>(0)
    /// This engine's name on the store's drain lease (one drainer per store, across processes).
    let drainerID = UUID().uuidString
    /// How long a drain lease lasts unless renewed (by every claim): a drainer that died holds
    /// the store no longer than this.
    static let drainLease: TimeInterval = 120
    /// Whether a drain is under way, and the callers waiting for its report.
    var draining = false
    var joiners: [CheckedContinuation<SyncReport, Never>] = []
    /// The last reset a pull made that no ``syncNow()`` report has told yet.
    var unreportedReset: SyncReset?
    /// Whether a pull is under way, and the callers waiting for its result.
    var pulling = false
    var pullJoiners: [CheckedContinuation<PullResult, Never>] = []
    /// Changes per pull request.
    let pullPageSize: Int
    let refreshes = RefreshQueue()
    /// Whether the live change stream is open now (the periodic pull waits while it is).
    let streamHeld = Broadcaster(false)
    /// The changes each pull applied.
    let appliedChanges = Broadcaster<[RemoteChange]>()
    /// Why each job's last refresh failed, until one succeeds.
    var staleReasons: [RefreshJob: StaleReason] = [:]
    /// When a pull of this session last reached the end of the feed: everything the feed carries
    /// was the server's then, even what it did not send again.
    var feedConfirmedAt: Date?

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
    static func followSession(of client: APIClient, userID: String, into status: Broadcaster<SyncStatus>) {
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

    /// How long a finished pull answers the reads that ask for a refresh before another is sent.
    let minimumPullInterval: TimeInterval = 5
}
