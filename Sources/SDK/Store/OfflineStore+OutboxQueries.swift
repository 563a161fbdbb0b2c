import Foundation
import GRDB

/// What the outbox holds, read in one transaction each: for the app's lists, the sync status,
/// sign-out, and the drain's choice of what to send next.
extension OfflineStore {
    /// Every pending item (queued or in flight), oldest first.
    func pendingItems() async throws -> [OutboxItem] {
        try await writer.read { db in try QueuedWrite.pending.fetchAll(db).map { try $0.item() } }
    }

    /// Whether writes to `resource` are still waiting.
    func hasPending(_ resource: ResourceKey) async throws -> Bool {
        try await writer.read { db in
            try QueuedWrite.pending.filter(QueuedWrite.Columns.resource == resource.description).fetchCount(db) > 0
        }
    }

    /// The dead letters, newest first.
    func deadLetters() async throws -> [DeadLetter] {
        try await writer.read { db in
            try QueuedWrite.filter(QueuedWrite.Columns.state == QueuedWrite.State.deadLetter.rawValue)
                .order(Column("failed_at").desc).fetchAll(db).map { try $0.deadLetter() }
        }
    }

    /// The parked conflicts, oldest first.
    func conflicts() async throws -> [SyncConflict] {
        try await writer.read { db in
            try QueuedWrite.filter(QueuedWrite.Columns.state == QueuedWrite.State.conflict.rawValue)
                .order(Column("detected_at")).fetchAll(db).map { try $0.conflict() }
        }
    }

    /// The outbox, dead letters and conflicts counted in one read: the sync status, and the
    /// user's work not yet on the server that sign-out refuses to drop.
    func outboxCounts() async throws -> OutboxCounts {
        try await writer.read { db in try Self.counts(db) }
    }

    /// How many writes wait in the outbox, read synchronously: a drain that was cancelled still
    /// reports what it left (an async database access refuses to run in a cancelled task).
    func pendingCountNow() throws -> Int {
        try writer.read { db in try QueuedWrite.pending.fetchCount(db) }
    }

    /// Whether a write based on a server version waits to be sent (a reset may have made its
    /// base one the server no longer has).
    func hasPendingVersionedWrites() async throws -> Bool {
        try await writer.read { db in
            try QueuedWrite.pending.filter(sql: "base_version IS NOT NULL").fetchCount(db) > 0
        }
    }

    /// When the earliest delayed item falls due, if any is delayed.
    func nextRetryDate() async throws -> Date? {
        try await writer.read { db in
            try Date.fetchOne(
                db, sql: "SELECT MIN(next_attempt_at) FROM queued_writes WHERE \(QueuedWrite.State.pendingSQL) AND next_attempt_at IS NOT NULL")
        }
    }

    /// The outbox per resource, in queue order, keeping only the resources whose first item is due
    /// at `now` and that are not in `excluded`: a later write of a resource never overtakes an
    /// earlier one waiting for its retry. A resource whose prerequisite has a creation queued
    /// (progress in a course being enrolled in) waits until that creation is settled.
    func dueQueues(now: Date, excluding excluded: Set<ResourceKey> = []) async throws -> [(resource: ResourceKey, items: [OutboxItem])] {
        try await writer.read { db in
            var queues: [(resource: ResourceKey, items: [OutboxItem])] = []
            var index: [ResourceKey: Int] = [:]
            var creations: Set<ResourceKey> = []
            for record in try QueuedWrite.pending.fetchAll(db) {
                let item = try record.item()
                if item.operation == .create { creations.insert(item.resource) }
                if let position = index[item.resource] {
                    queues[position].items.append(item)
                } else {
                    index[item.resource] = queues.count
                    queues.append((item.resource, [item]))
                }
            }
            return queues.filter { queue in
                guard !excluded.contains(queue.resource), let first = queue.items.first else { return false }
                if let prerequisite = queue.resource.prerequisite, creations.contains(prerequisite) { return false }
                return first.nextAttemptAt.map { $0 <= now } ?? true
            }
        }
    }
}
