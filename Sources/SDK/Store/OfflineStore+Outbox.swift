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
}
