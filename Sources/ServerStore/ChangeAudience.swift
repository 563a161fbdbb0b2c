import GRDB

/// Who hears of a logged change: the one rule the change feed's pages and the live event stream
/// share, written once in SQL and once in Swift side by side so that they cannot drift apart
/// unnoticed (`ChangeAudienceTests` compares them over every shape of change).
///
/// A caller hears of a change of its own rows (its enrollments, progress and profile), and of a
/// course or lesson unless the change was made entirely inside a draft course that is not the
/// caller's (admins hear of every draft).
package struct ChangeAudience: Sendable, Equatable {
    package let userID: String
    package let isAdmin: Bool

    package init(_ identity: Identity) {
        self.init(userID: identity.userID, isAdmin: identity.role == .admin)
    }

    package init(userID: String, isAdmin: Bool) {
        self.userID = userID
        self.isAdmin = isAdmin
    }

    /// The condition on a row of `changes`, with its arguments.
    package var sql: (condition: String, arguments: StatementArguments) {
        (
            "(user_id = ? OR (entity IN ('course', 'lesson') AND (draft_of IS NULL OR draft_of = ? OR ?)))",
            [userID, userID, isAdmin]
        )
    }

    /// Whether the caller hears of `change`: ``sql`` evaluated in memory.
    package func hears(_ change: LoggedChange) -> Bool {
        if change.userID == userID { return true }
        guard change.entity == ChangeLog.Entity.course.rawValue || change.entity == ChangeLog.Entity.lesson.rawValue
        else { return false }
        return change.draftOf == nil || change.draftOf == userID || isAdmin
    }
}

/// The columns of one row of `changes` that decide who hears of it.
package struct LoggedChange: Sendable, Equatable, FetchableRecord {
    package var seq: Int64
    package var entity: String
    package var userID: String?
    package var draftOf: String?

    package init(seq: Int64, entity: String, userID: String?, draftOf: String?) {
        self.seq = seq
        self.entity = entity
        self.userID = userID
        self.draftOf = draftOf
    }

    package init(row: Row) {
        self.init(seq: row["seq"], entity: row["entity"], userID: row["user_id"], draftOf: row["draft_of"])
    }
}
