import Foundation
import GRDB

/// Sign-out's first step: the check that no work would be lost and the seal that keeps any from
/// arriving, in one transaction. A write that committed before it is counted (and the sign-out
/// refuses); a write after it fails with the database error `store_sealed` (see
/// ``isSealedRefusal(_:)``), in this process and any other that has the file open.
extension OfflineStore {
    /// What ``sealUnlessPending(discarding:at:)`` did.
    enum SealOutcome: Equatable, Sendable {
        /// The store accepts no write any more: destroy it.
        case sealed
        /// Work is waiting (writes, dead letters or conflicts): nothing changed.
        case refused(OutboxCounts)
    }

    /// Seals the store (at `date`) unless work is waiting or `discarding` it: one transaction.
    func sealUnlessPending(discarding: Bool, at date: Date) async throws -> SealOutcome {
        try await writer.write { db in
            let counts = try Self.counts(db)
            if !discarding && counts.pending + counts.deadLetters + counts.conflicts > 0 { return .refused(counts) }
            try db.execute(sql: "INSERT OR REPLACE INTO seal (id, sealed_at) VALUES (1, ?)", arguments: [date])
            return .sealed
        }
    }

    /// Whether a sign-out sealed the store (and did not get to destroy it).
    func isSealed() throws -> Bool {
        try writer.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM seal)") ?? false }
    }

    /// Whether `error` is a write refused because the store is sealed (its user signed out).
    static func isSealedRefusal(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CONSTRAINT && error.message == "store_sealed"
    }
}
