import Foundation
import GRDB

extension OfflineStore {
    /// Moves an outbox item to the dead letters (`letter` carries its id), in one transaction —
    /// unless `prerequisite` names a resource with a creation still queued: then the item stays
    /// queued, to be sent after it (see ``WriteDependency``). The check and the move are one step.
    ///
    /// - Returns: `true` when the item became a dead letter, `false` when it waits for its prerequisite.
    func deadLetter(_ letter: DeadLetter, unlessCreationQueuedFor prerequisite: String?) async throws -> Bool {
        try await writer.write { db -> Bool in
            if let prerequisite {
                let queued = try OutboxItem
                    .filter(OutboxItem.Columns.resource == prerequisite && Column("operation") == OutboxItem.Operation.create.rawValue)
                    .fetchCount(db)
                if queued > 0 {
                    try db.execute(sql: "UPDATE outbox SET next_attempt_at = NULL WHERE id = ?", arguments: [letter.id])
                    return false
                }
            }
            try letter.insert(db)
            _ = try OutboxItem.deleteOne(db, key: letter.id)
            return true
        }
    }

    /// Moves dead letter `id` back into the outbox at its old place (its id: the outbox's ids are
    /// never reused), with its key, counted as attempted so no later write is merged into it, and
    /// with `now` as its creation (a new 24 hours before it is stale). One transaction.
    func requeueDeadLetter(id: Int64, at now: Date) async throws {
        try await writer.write { db in
            guard let letter = try DeadLetter.fetchOne(db, key: id) else { return }
            try letter.delete(db)
            try Self.requeue(
                OutboxItem(
                    id: letter.id, resource: letter.resource, operation: letter.operation, method: letter.method,
                    path: letter.path, body: letter.body, baseVersion: letter.baseVersion, baseJson: letter.baseJson,
                    idempotencyKey: letter.idempotencyKey, createdAt: now, attempts: 1, nextAttemptAt: nil, lastError: nil),
                db)
        }
    }

    /// Settles parked conflict `id` in one transaction: the server's state is stored (keep the
    /// server's), or the write goes back to its old place on top of the server's version (keep
    /// mine, custom), counted as attempted so no later write is merged into it.
    func settleConflict(id: Int64, choice: ConflictChoice, at now: Date) async throws {
        try await writer.write { db in
            guard let conflict = try SyncConflict.fetchOne(db, key: id) else { return }
            try conflict.delete(db)
            let body: Data?
            switch choice {
            case .keepServer:
                try LocalCache.apply(db, resource: conflict.resource, operation: .update, json: conflict.serverJson, at: now)
                return
            case .keepMine: body = conflict.body
            case .custom(let custom): body = custom
            }
            try Self.requeue(
                OutboxItem(
                    id: conflict.id, resource: conflict.resource, operation: conflict.operation, method: conflict.method,
                    path: conflict.path, body: body, baseVersion: conflict.serverVersion, baseJson: conflict.serverJson,
                    idempotencyKey: conflict.idempotencyKey, createdAt: now, attempts: 1, nextAttemptAt: nil, lastError: nil),
                db)
        }
    }

    /// Inserts `item` under its own id when that id is free (it always is: an item leaves the
    /// outbox before it becomes a dead letter or a conflict), else at the end.
    private static func requeue(_ item: OutboxItem, _ db: Database) throws {
        var item = item
        if let id = item.id, try OutboxItem.exists(db, key: id) { item.id = nil }
        try item.insert(db)
    }
}
