import EduGoGuarded
import EduGoServerStore
import Foundation

/// The open event streams of every tenant, and what each has yet to be told.
///
/// A commit that logs changes reaches ``committed(_:changes:revokedSessions:allSessionsSuspect:)``
/// from the tenant's writer (a ``CommitObserver``), after the commit and before the write returns
/// to its caller. The hub decides, in memory and with the change feed's own rule
/// (``ChangeAudience``), which streams hear of it, notes the newest change each may see and wakes
/// them; each stream then writes at most one event for everything that gathered meanwhile.
///
/// A stream is reserved by ``reserve(_:expiresAt:)`` when its request is accepted (the per-user
/// and per-server caps are checked and taken in that one step) and claimed when its body starts
/// writing; a reservation whose body never ran (a middleware replaced the response) is dropped by
/// ``tick(now:)``.
final class ChangeHub: TenantCommitListener {
    /// Why a stream ended, as its last event says.
    enum EndReason: String, Sendable {
        /// The session was revoked (logout, password reset, refresh-token reuse), the user was
        /// deleted or their role changed: reconnecting needs a fresh sign-in or token.
        case sessionEnded = "session_ended"
        /// The access token the stream was opened with expired: reconnect with a fresh one.
        case tokenExpired = "token_expired"
        /// The tenant was deleted.
        case tenantDeleted = "tenant_deleted"
        /// The server is shutting down.
        case shutdown
        /// The client went away.
        case clientGone = "client_gone"
    }

    /// What a stream has to act on, taken (and reset) by ``take(_:)``.
    struct Pending: Sendable, Equatable {
        /// The newest change the stream's caller may see, when one arrived since the last take.
        var newest: Int64?
        /// The tenant's data changed in a way the hub could not attribute: read the newest change
        /// the caller may see from the store.
        var lookAgain = false
        /// A session of the stream's user was revoked, or sessions were deleted: check its own.
        var checkSession = false
        /// A keep-alive comment is due.
        var heartbeat = false
        /// The stream must end.
        var end: EndReason?
    }

    /// A reserved stream: its id and the wake-ups telling it to ``take(_:)``.
    struct Subscription: Sendable {
        let id: Int
        let wakes: AsyncStream<Void>
    }

    /// The caps on open streams.
    struct Limits: Sendable {
        /// Streams one user may hold at once (a 6th answers 429).
        var perUser = 5
        /// Streams the whole server holds at once (one more answers 503).
        var total = 10_000
    }

    private struct Subscriber {
        let tenant: TenantID
        let audience: ChangeAudience
        let sessionID: String
        let expiresAt: Date
        let reservedAt: Date
        var claimed = false
        var pending = Pending()
        /// Where its device stands in the feed, as far as the server saw (the dev console's Devices).
        var position: Device.Position?
        let wake: AsyncStream<Void>.Continuation
    }

    private struct State {
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        var byTenant: [TenantID: Set<Int>] = [:]
    }

    private let state = Guarded(State())
    let limits: Limits
    /// Counts the events written, when metrics are on.
    private let metrics: ServerMetrics?
    /// How long a reservation may wait for its body before ``tick(now:)`` drops it.
    static let claimDeadline: TimeInterval = 30

    init(limits: Limits = Limits(), metrics: ServerMetrics? = nil) {
        self.limits = limits
        self.metrics = metrics
    }

    // MARK: Streams

    /// Reserves a stream for `identity`, whose access token expires at `expiresAt`.
    ///
    /// - Throws: `429 too_many_streams` when the user holds ``Limits/perUser`` streams, `503
    ///   stream_capacity` when the server holds ``Limits/total``; both with `Retry-After`.
    func reserve(_ identity: Identity, expiresAt: Date, now: Date) throws -> Subscription {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let audience = ChangeAudience(identity)
        let tenant = identity.tenantID
        let id = try state.withLock { state -> Int in
            guard state.subscribers.count < limits.total else { throw APIError.streamCapacity }
            let held = state.byTenant[tenant, default: []].count { state.subscribers[$0]?.audience.userID == audience.userID }
            guard held < limits.perUser else { throw APIError.tooManyStreams(limit: limits.perUser) }
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(
                tenant: tenant, audience: audience, sessionID: identity.sessionID, expiresAt: expiresAt, reservedAt: now,
                wake: wake)
            state.byTenant[tenant, default: []].insert(state.nextID)
            return state.nextID
        }
        return Subscription(id: id, wakes: wakes)
    }

    /// Marks a reservation as being written (its body runs); `false` when it already ended.
    func claim(_ id: Int) -> Bool {
        state.withLock { state in
            guard state.subscribers[id] != nil else { return false }
            state.subscribers[id]?.claimed = true
            return true
        }
    }

    /// What stream `id` has to act on since its last take; `end: .shutdown` once it is gone.
    func take(_ id: Int) -> Pending {
        state.withLock { state in
            guard let pending = state.subscribers[id]?.pending else { return Pending(end: .shutdown) }
            state.subscribers[id]?.pending = Pending()
            return pending
        }
    }

    /// Ends stream `id` for `reason` (it writes its last event and returns).
    func end(_ id: Int, _ reason: EndReason) {
        state.withLock { state in
            guard state.subscribers[id] != nil else { return }
            if state.subscribers[id]?.pending.end == nil { state.subscribers[id]?.pending.end = reason }
            state.subscribers[id]?.wake.yield()
        }
    }

    /// Forgets stream `id`: its body has returned.
    func remove(_ id: Int) {
        let wake = state.withLock { state -> AsyncStream<Void>.Continuation? in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return nil }
            state.byTenant[subscriber.tenant]?.remove(id)
            if state.byTenant[subscriber.tenant]?.isEmpty == true { state.byTenant[subscriber.tenant] = nil }
            return subscriber.wake
        }
        wake?.finish()
    }

    /// Counts an event written to a stream.
    func eventSent() {
        metrics?.recordStreamEvent()
    }

    // MARK: What happens

    /// A transaction of `tenant` committed `changes` and revoked `revokedSessions` (or deleted
    /// sessions it could not name, `allSessionsSuspect`): wakes the streams that hear of it.
    package func committed(_ tenant: TenantID, changes: [LoggedChange], revokedSessions: Set<String>, allSessionsSuspect: Bool) {
        state.withLock { state in
            for id in state.byTenant[tenant] ?? [] {
                guard var subscriber = state.subscribers[id] else { continue }
                var woken = false
                if let newest = changes.last(where: subscriber.audience.hears)?.seq {
                    subscriber.pending.newest = max(subscriber.pending.newest ?? newest, newest)
                    woken = true
                }
                if allSessionsSuspect || revokedSessions.contains(subscriber.sessionID) {
                    subscriber.pending.checkSession = true
                    woken = true
                }
                guard woken else { continue }
                state.subscribers[id] = subscriber
                subscriber.wake.yield()
            }
        }
    }

    /// `tenant`'s data changed in a way no list of changes describes (a snapshot restored, a
    /// commit whose changes could not be read): every stream of it looks again, checking its
    /// session first.
    package func replaced(_ tenant: TenantID) {
        state.withLock { state in
            for id in state.byTenant[tenant] ?? [] {
                state.subscribers[id]?.pending.lookAgain = true
                state.subscribers[id]?.pending.checkSession = true
                state.subscribers[id]?.wake.yield()
            }
        }
    }

    /// `tenant` was deleted: its streams end.
    func tenantDeleted(_ tenant: TenantID) {
        let ids = state.withLock { $0.byTenant[tenant] ?? [] }
        for id in ids { end(id, .tenantDeleted) }
    }

    /// Every stream ends (graceful shutdown).
    func endAll() {
        let ids = state.withLock { Array($0.subscribers.keys) }
        for id in ids { end(id, .shutdown) }
    }

    /// Once a second: ends streams whose access token expired at `now` and drops reservations
    /// never claimed; with `heartbeat`, asks every stream for a keep-alive comment.
    func tick(now: Date, heartbeat: Bool) {
        let orphans = state.withLock { state -> [Int] in
            var orphans: [Int] = []
            for (id, subscriber) in state.subscribers {
                if !subscriber.claimed {
                    if now.timeIntervalSince(subscriber.reservedAt) > Self.claimDeadline { orphans.append(id) }
                    continue
                }
                if now >= subscriber.expiresAt, subscriber.pending.end == nil {
                    state.subscribers[id]?.pending.end = .tokenExpired
                    subscriber.wake.yield()
                } else if heartbeat {
                    state.subscribers[id]?.pending.heartbeat = true
                    subscriber.wake.yield()
                }
            }
            return orphans
        }
        for id in orphans { remove(id) }
    }

    // MARK: Devices

    /// Stream `id` resumed from a `Last-Event-ID` at `seq` that nothing it may see has passed.
    func noteResumed(_ id: Int, at seq: Int64, of timeline: String, now: Date) {
        state.withLock { $0.subscribers[id]?.position = .init(seq: seq, timeline: timeline, source: .lastEventID, at: now) }
    }

    /// A pull of `sessionID` in `tenant` answered a delta cursor at `seq`: every stream of that
    /// session stands there.
    func notePull(_ tenant: TenantID, sessionID: String, at seq: Int64, of timeline: String, now: Date) {
        state.withLock { state in
            for id in state.byTenant[tenant] ?? [] where state.subscribers[id]?.sessionID == sessionID {
                state.subscribers[id]?.position = .init(seq: seq, timeline: timeline, source: .pull, at: now)
            }
        }
    }

    /// The claimed streams of `tenant`, oldest first.
    func devices(of tenant: TenantID) -> [Device] {
        state.withLock { state in
            (state.byTenant[tenant] ?? []).sorted().compactMap { id in
                guard let subscriber = state.subscribers[id], subscriber.claimed else { return nil }
                return Device(
                    stream: id, userID: subscriber.audience.userID, sessionID: subscriber.sessionID,
                    openedAt: subscriber.reservedAt, position: subscriber.position)
            }
        }
    }

    // MARK: Reporting

    /// Open streams per tenant (reservations included).
    func openStreams() -> [TenantID: Int] {
        state.withLock { $0.byTenant.mapValues(\.count) }
    }

    /// Open streams in all (reservations included).
    func openCount() -> Int {
        state.withLock { $0.subscribers.count }
    }
}
