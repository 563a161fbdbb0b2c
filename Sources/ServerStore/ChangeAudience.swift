import GRDB

/// Who hears of a logged change: the one rule the change feed's pages and the live event stream
/// share, written once in SQL and once in Swift side by side so that they cannot drift apart
/// unnoticed (`ChangeAudienceTests` compares them over every shape of change).
///
/// A caller hears of a change of its own rows (those of an entity whose audience is its owner:
/// enrollments, progress, profile), and of a row whose audience is its course (courses, lessons)
/// unless the change was made entirely inside a draft course that is not the caller's (admins hear
/// of every draft). Which entities are which comes from their descriptors (``FeedEntity/audience``).
package struct ChangeAudience: Sendable, Equatable {
    package let userID: String
    package let isAdmin: Bool
    /// The entities everyone who may see a course hears of.
    package let courseWide: [String]

    package init(_ identity: Identity, entities: [FeedEntity] = FeedEntity.all) {
        self.init(userID: identity.userID, isAdmin: identity.role == .admin, entities: entities)
    }

    package init(userID: String, isAdmin: Bool, entities: [FeedEntity] = FeedEntity.all) {
        self.userID = userID
        self.isAdmin = isAdmin
        courseWide = entities.filter { $0.audience == .course }.map(\.name)
    }

    /// The condition on a row of `changes`, with its arguments.
    package var sql: (condition: String, arguments: StatementArguments) {
        let names = courseWide.map { "'\($0)'" }.joined(separator: ", ")
        return (
            "(user_id = ? OR (entity IN (\(names)) AND (draft_of IS NULL OR draft_of = ? OR ?)))",
            [userID, userID, isAdmin]
        )
    }

    /// Whether the caller hears of `change`: ``sql`` evaluated in memory.
    package func hears(_ change: LoggedChange) -> Bool {
        if change.userID == userID { return true }
        guard courseWide.contains(change.entity) else { return false }
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
