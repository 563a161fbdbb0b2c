import Foundation
import GRDB

/// The app's answers to dead letters and parked conflicts, each one transaction.
extension OfflineStore {
    /// Moves dead letter `id` back into the outbox at its old place (its id: the outbox's ids are
    /// never reused), with its key, counted as attempted so no later write is merged into it, and
    /// with `now` as its creation (a new 24 hours before it is stale).
    func requeueDeadLetter(id: Int64, at now: Date) async throws {
        try await writer.write { db in
            guard let letter = try DeadLetterRecord.fetchOne(db, key: id) else { return }
            try letter.delete(db)
            try Self.requeue(letter.requeued(at: now), db)
        }
    }

    /// Drops dead letter `id` for good.
    func discardDeadLetter(id: Int64) async throws {
        _ = try await writer.write { db in try DeadLetterRecord.deleteOne(db, key: id) }
    }

    /// Settles parked conflict `id`: the server's state is stored (keep the server's), or the
    /// write goes back to its old place on top of the server's version (keep mine, custom),
    /// counted as attempted so no later write is merged into it.
    func settleConflict(id: Int64, choice: ConflictChoice, at now: Date) async throws {
        try await writer.write { db in
            guard let conflict = try ConflictRecord.fetchOne(db, key: id) else { return }
            try conflict.delete(db)
            switch choice {
            case .keepServer:
                try LocalCache.apply(db, resource: try conflict.value().resource, operation: .update, json: conflict.serverJson, at: now)
            case .keepMine:
                try Self.requeue(conflict.requeued(body: conflict.body, at: now), db)
            case .custom(let body):
                try Self.requeue(conflict.requeued(body: body, at: now), db)
            }
        }
    }

    /// Inserts `item` under its own id when that id is free (it always is: an item leaves the
    /// outbox before it becomes a dead letter or a conflict), else at the end.
    private static func requeue(_ item: OutboxRecord, _ db: Database) throws {
        var item = item
        if let id = item.id, try OutboxRecord.exists(db, key: id) { item.id = nil }
        try item.insert(db)
    }
}
