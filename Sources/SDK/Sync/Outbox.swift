import Foundation

/// The persistent queue of writes made while the server could not be reached (or before it
/// answered). Items replay in order per resource, each with the `Idempotency-Key` it got at
/// enqueue time, so a replay after a lost response is applied once.
///
/// Enqueueing coalesces with the resource's last item that was never sent: two updates become
/// one, a create followed by an update stays one create, and a create followed by a delete
/// leaves nothing. Items already attempted are never rewritten (their key may be on the server).
public struct Outbox: Sendable {
    let store: OfflineStore
    let now: @Sendable () -> Date
    let makeKey: @Sendable () -> String

    /// Made by the session's ``SyncEngine``; not public API (`@_spi(EduGoInternals)`, for the benchmarks).
    @_spi(EduGoInternals) public init(store: OfflineStore, now: @escaping @Sendable () -> Date = { Date() }, makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.store = store
        self.now = now
        self.makeKey = makeKey
    }

    /// Queues `write` as it is (its base as given); returns the item that now carries it, or `nil`
    /// when it cancelled an unsent creation (create + delete). Not public API
    /// (`@_spi(EduGoInternals)`, for the tests and benchmarks); repositories use ``record(_:)``.
    @discardableResult
    @_spi(EduGoInternals) public func enqueue(_ write: PendingWrite) async throws -> OutboxItem? {
        try await store.enqueue(write, key: makeKey(), at: now())
    }

    /// Queues a repository's `write` on the resource's cached server state (merged with it as
    /// `policy` says), in one transaction that also counts the unsynced work (for the sync status).
    func record(_ write: PendingWrite, policy: ConflictPolicy) async throws -> OfflineStore.OutboxCounts {
        try await store.record(write, key: makeKey(), at: now(), policy: policy)
    }

    /// Every write still waiting, in outbox order: the order in which the writes to each resource
    /// replay (a requeued dead letter or conflict is back at its old place).
    public func pending() async throws -> [OutboxItem] {
        try await store.pendingItems()
    }

    /// Whether writes to `resource` are still waiting.
    public func hasPending(resource: ResourceKey) async throws -> Bool {
        try await store.hasPending(resource)
    }

    /// Writes the server refused, newest first.
    public func deadLetters() async throws -> [DeadLetter] {
        try await store.deadLetters()
    }

    /// Moves a dead letter back into the outbox to be tried again, with its `Idempotency-Key`.
    ///
    /// It goes back to its place: it replays before the writes to its resource made after it, so
    /// an old intent never overwrites a newer one. Its key may be on the server already, so no
    /// later write is merged into it. It has a new 24 hours before it is `stale`. An id that is no
    /// longer a dead letter (already retried or discarded) is ignored.
    public func retryDeadLetter(id: Int64) async throws {
        try await store.requeueDeadLetter(id: id, at: now())
    }

    /// Drops a dead letter for good: the change it carried is lost. An unknown id is ignored.
    public func discardDeadLetter(id: Int64) async throws {
        try await store.discardDeadLetter(id: id)
    }

    /// Conflicts parked for the app (the `manual` strategy, or a write that met a newer version
    /// too often), oldest first.
    public func conflicts() async throws -> [SyncConflict] {
        try await store.conflicts()
    }
}

/// How the app settles a parked conflict.
public enum ConflictChoice: Sendable, Equatable {
    /// Send this client's write again, on top of the server's version.
    case keepMine
    /// Drop this client's write; take the server's state.
    case keepServer
    /// Send this body instead, on top of the server's version.
    case custom(Data)
}

extension Outbox {
    /// Settles a parked conflict: back into the outbox (mine, custom) or dropped (server).
    ///
    /// A write sent again goes back to its place, before the writes to its resource made after
    /// it, on top of the server's version; no later write is merged into it. An id that is no
    /// longer parked (already settled) is ignored.
    public func resolveConflict(id: Int64, choice: ConflictChoice) async throws {
        try await store.settleConflict(id: id, choice: choice, at: now())
    }
}
