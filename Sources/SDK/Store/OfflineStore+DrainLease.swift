import Foundation
import GRDB

/// One drainer per store, across processes: a lease row in the store's settings.
extension OfflineStore {
    /// The `settings` key of the drain lease: `<owner> <expiry, seconds since 1970>`.
    private static let drainLeaseKey = "sync.drain_lease"

    /// Takes or renews the drain lease for `owner` until `expiry`, unless another owner holds one
    /// that has not expired, inside the caller's transaction (a claim checks and renews the lease
    /// in the same step, so no item is sent by a drainer whose lease another one took meanwhile).
    /// SQLite serialises write transactions across processes, so two drainers (an app and its
    /// extension, two `edugo` commands) never both hold it.
    ///
    /// - Returns: whether `owner` holds the lease now.
    static func holdDrainLease(_ db: Database, owner: String, now: Date, until expiry: Date) throws -> Bool {
        if let holder = try drainLease(db), holder.owner != owner, holder.expiry > now { return false }
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)")
            .execute(arguments: [drainLeaseKey, "\(owner) \(expiry.timeIntervalSince1970)"])
        return true
    }

    /// Gives the drain lease up, if `owner` holds it.
    ///
    /// Synchronous on purpose: a drain ends this way when its task was cancelled too (sign-out,
    /// another user's sign-in), and an async database access would refuse to run then, leaving
    /// the store locked for the lease's remaining time.
    func releaseDrainLease(owner: String) throws {
        try writer.write { db in
            guard let holder = try Self.drainLease(db), holder.owner == owner else { return }
            try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [Self.drainLeaseKey])
        }
    }

    private static func drainLease(_ db: Database) throws -> (owner: String, expiry: Date)? {
        guard let value = try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [drainLeaseKey]) else {
            return nil
        }
        let parts = value.split(separator: " ")
        guard parts.count == 2, let seconds = Double(parts[1]) else { return nil }
        return (String(parts[0]), Date(timeIntervalSince1970: seconds))
    }
}
