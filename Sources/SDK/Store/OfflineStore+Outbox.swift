import Foundation
import GRDB

extension OfflineStore {
    /// Moves an outbox item to the dead letters (`letter` carries its id), in one transaction.
    func deadLetter(_ letter: DeadLetter) async throws {
        try await writer.write { db in
            try letter.insert(db)
            _ = try OutboxItem.deleteOne(db, key: letter.id)
        }
    }
}
