import Foundation
import GRDB

/// The app's answers to dead letters and parked conflicts, each one transaction that changes the
/// write's row in place (it keeps its id, so it is back at its old place in the queue).
extension OfflineStore {
    /// Queues dead letter `id` again at its old place, with its key, counted as attempted so no
    /// later write is merged into it, and with `now` as its creation (a new 24 hours before it is
    /// stale). An id that is not a dead letter is ignored.
    func requeueDeadLetter(id: Int64, at now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE queued_writes SET state = 'queued', created_at = ?, attempts = 1, next_attempt_at = NULL,
                    last_error = NULL, failed_at = NULL, reason = NULL, status = NULL, problem = NULL
                    WHERE id = ? AND state = 'dead_letter'
                    """,
                arguments: [now, id])
        }
    }

    /// Drops dead letter `id` for good. An id that is not a dead letter is ignored.
    func discardDeadLetter(id: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM queued_writes WHERE id = ? AND state = 'dead_letter'", arguments: [id])
        }
    }

    /// Settles parked conflict `id`: the server's state is stored (keep the server's), or the
    /// write is queued again at its old place on top of the server's version (keep mine, custom),
    /// counted as attempted so no later write is merged into it. An id that is not a parked
    /// conflict is ignored.
    func settleConflict(id: Int64, choice: ConflictChoice, at now: Date) async throws {
        try await writer.write { db in
            let parked = QueuedWrite.filter(QueuedWrite.Columns.id == id && QueuedWrite.Columns.state == QueuedWrite.State.conflict.rawValue)
            guard let conflict = try parked.fetchOne(db) else { return }
            let body: Data?
            switch choice {
            case .keepServer:
                try conflict.delete(db)
                try LocalCache.apply(db, resource: try conflict.item().resource, operation: .update, json: conflict.serverJson, at: now)
                return
            case .keepMine:
                body = conflict.body
            case .custom(let custom):
                body = custom
            }
            try db.execute(
                sql: """
                    UPDATE queued_writes SET state = 'queued', body = ?, base_version = server_version, base_json = server_json,
                    created_at = ?, attempts = 1, next_attempt_at = NULL, last_error = NULL,
                    server_version = NULL, server_json = NULL, detected_at = NULL
                    WHERE id = ?
                    """,
                arguments: [body, now, id])
        }
    }
}
