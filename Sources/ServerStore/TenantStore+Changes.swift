import Foundation
import GRDB

/// The change feed: what changed after a cursor, as the caller sees it.
extension TenantStore {
    /// One page of the changes `identity` may see after `cursor` (a base sync without one).
    ///
    /// Each page is read in one read transaction, so it is a consistent snapshot. Several changes
    /// of one entity collapse to its current state; an entity the caller can no longer see is a
    /// tombstone. A base sync reads what the caller sees entity kind by entity kind, in id order,
    /// and then continues as a delta from the sequence its first page saw, so a change made while
    /// it pages is delivered after it, never lost.
    ///
    /// - Parameters:
    ///   - horizon: Changes logged before it are pruned; a cursor older than the pruned ones is expired.
    /// - Throws: ``StoreError/invalidCursor`` for a cursor minted for another tenant or user,
    ///   ``StoreError/cursorExpired(_:)`` for one older than the retention window, minted for
    ///   another role, or of another timeline.
    package func changes(
        after cursor: ChangeCursor?, visibleTo identity: Identity, limit: Int, horizon: Date
    ) async throws -> ChangeFeedPage {
        if let cursor {
            guard cursor.tenant == tenantID.rawValue, cursor.user == identity.userID else { throw StoreError.invalidCursor }
        }
        try await pruneChanges(before: horizon)
        return try await database.read { db in
            let timeline = try ChangeTimeline.current(db).id
            // Another timeline first: it is the one reason that tells a device its queued writes
            // name versions of a history that no longer exists (it reconciles them before sending
            // any). A restore can also change the caller's role back; said as `role_changed`, the
            // device would send those writes, and a version number that happens to match would
            // let an old write overwrite a newer one.
            if let cursor, cursor.timeline != timeline { throw StoreError.cursorExpired(.timelineChanged) }
            if let cursor, cursor.role != identity.role.rawValue { throw StoreError.cursorExpired(.roleChanged) }
            let prunedThrough = try Int64.fetchOne(db, sql: "SELECT pruned_through FROM change_log") ?? 0
            if let cursor, cursor.seq < prunedThrough { throw StoreError.cursorExpired(.retention) }
            let head = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
            let feed = ChangeFeedReader(db: db, identity: identity)
            let mint: ChangeFeedReader.Mint = { seq, base in
                self.cursor(for: identity, timeline: timeline, seq: seq, base: base)
            }
            guard let cursor, cursor.base == nil else {
                return try feed.basePage(from: cursor?.base, snapshot: cursor?.seq ?? head, head: head, limit: limit, mint: mint)
            }
            return try feed.deltaPage(after: cursor.seq, head: head, limit: limit, mint: mint)
        }
    }

    /// Drops the change log's entries logged before `horizon`, remembering the newest sequence
    /// dropped. Reads first, so a pull writes only when something is due.
    package func pruneChanges(before horizon: Date) async throws {
        let cutoff = horizon.timeIntervalSince1970
        let due = try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(changed_at) FROM changes").map { $0 < cutoff } ?? false
        }
        guard due else { return }
        try await database.writer.write { db in
            guard let newest = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM changes WHERE changed_at < ?", arguments: [cutoff])
            else { return }
            try db.execute(sql: "DELETE FROM changes WHERE changed_at < ?", arguments: [cutoff])
            try db.execute(
                sql: "UPDATE change_log SET pruned_through = MAX(pruned_through, ?)", arguments: [newest])
        }
    }

    /// The newest change sequence of the tenant (0 before any change).
    package func changeSequence() async throws -> Int64 {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
        }
    }

    private func cursor(for identity: Identity, timeline: String, seq: Int64, base: ChangeCursor.BasePosition?) -> ChangeCursor {
        ChangeCursor(
            tenant: tenantID.rawValue, user: identity.userID, role: identity.role.rawValue, timeline: timeline, seq: seq, base: base)
    }
}

extension TenantStore {
    /// Where the change feed stands for a live stream: the newest change `audience` hears of, the
    /// tenant's newest change, the newest one pruned and the timeline, read in one transaction.
    package struct FeedPosition: Sendable, Equatable {
        package var newestHeard: Int64
        package var head: Int64
        package var prunedThrough: Int64
        package var timeline: String

        package init(newestHeard: Int64, head: Int64, prunedThrough: Int64, timeline: String) {
            self.newestHeard = newestHeard
            self.head = head
            self.prunedThrough = prunedThrough
            self.timeline = timeline
        }
    }

    /// The feed's position as `audience` sees it.
    package func feedPosition(for audience: ChangeAudience) async throws -> FeedPosition {
        try await database.read { db in
            let condition = audience.sql
            let newest = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM changes WHERE \(condition.condition) ORDER BY seq DESC LIMIT 1"),
                arguments: condition.arguments)
            let head = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
            let pruned = try Int64.fetchOne(db, sql: "SELECT pruned_through FROM change_log") ?? 0
            let timeline = try ChangeTimeline.current(db).id
            return FeedPosition(newestHeard: newest ?? 0, head: head, prunedThrough: pruned, timeline: timeline)
        }
    }

    /// The cursor a live stream's event carries: where the feed stands after change `seq` of
    /// `timeline` for `identity`.
    package func streamCursor(for identity: Identity, timeline: String, seq: Int64) -> ChangeCursor {
        streamCursor(userID: identity.userID, role: identity.role, timeline: timeline, seq: seq)
    }

    /// The cursor a stream event names for the user `userID` acting as `role`.
    package func streamCursor(userID: String, role: UserRecord.Role, timeline: String, seq: Int64) -> ChangeCursor {
        ChangeCursor(tenant: tenantID.rawValue, user: userID, role: role.rawValue, timeline: timeline, seq: seq)
    }
}
