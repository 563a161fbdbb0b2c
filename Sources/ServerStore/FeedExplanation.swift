import Foundation
import GRDB

/// Whether a user's device should hold an entity, and why not (the dev console's Explain).
///
/// ``held`` is the change feed's own read (``ChangeFeedReader/carries(_:id:)``); the reasons take
/// that read's conditions one at a time (the row, its owner, its course's visibility from
/// ``CourseAccess/visibleSQL(role:userID:)``), so they explain the feed's answer, never a second
/// rule of their own.
package struct FeedExplanation: Sendable, Equatable {
    /// Why the feed does not carry the entity to the user.
    package enum Reason: String, Sendable, Equatable {
        /// No such row (for the user, when the entity is one of a user's own rows), and the
        /// change log remembers one: it was deleted.
        case deleted
        /// No such row, and the change log remembers none (never created, or pruned).
        case missing
        /// Such rows exist, only of other users (another's enrollment, progress or profile).
        case notOwn = "not_own"
        /// Its course (or the course itself) is a draft the user may not see.
        case draft
        /// None of the conditions above: the feed and its explanation disagree (a defect).
        case unexplained
    }

    /// Whether the feed carries the entity to the user.
    package var held: Bool
    /// Empty when held.
    package var reasons: [Reason]
    /// The entity's course, when it has one and the row exists.
    package var courseID: String?
}

extension ChangeFeedReader {
    /// Explains whether the feed carries entity `id` of kind `entity` to the reader's user.
    package func explain(_ entity: FeedEntity, id: String) throws -> FeedExplanation {
        let held = try carries(entity, id: id)
        var ownCondition = ""
        var arguments: StatementArguments = [id]
        if let owner = entity.ownerColumn {
            ownCondition = " AND \(owner) = ?"
            arguments += [userID]
        }
        let row = try Row.fetchOne(
            db, sql: "SELECT * FROM \(entity.table) WHERE \(entity.idColumn) = ?\(ownCondition) LIMIT 1", arguments: arguments)
        let courseID: String? = entity.courseColumn.flatMap { row?[$0] }
        guard !held else { return FeedExplanation(held: true, reasons: [], courseID: courseID) }
        guard row != nil else { return FeedExplanation(held: false, reasons: [try absence(of: entity, id: id)], courseID: nil) }
        var reasons: [FeedExplanation.Reason] = []
        if let courseID {
            let (visible, visibleArguments) = CourseAccess.visibleSQL(role: role, userID: userID)
            let conditions = (["id = ?"] + visible).joined(separator: " AND ")
            let seen = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM courses WHERE \(conditions))", arguments: [courseID] + visibleArguments)
            if seen != true { reasons.append(.draft) }
        }
        return FeedExplanation(held: false, reasons: reasons.isEmpty ? [.unexplained] : reasons, courseID: courseID)
    }

    /// Why there is no row: only other users hold one, the log remembers a change of it, or neither.
    private func absence(of entity: FeedEntity, id: String) throws -> FeedExplanation.Reason {
        if entity.ownerColumn != nil,
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(entity.table) WHERE \(entity.idColumn) = ?)", arguments: [id]) == true
        {
            return .notOwn
        }
        var sql = "SELECT EXISTS (SELECT 1 FROM changes WHERE entity = ? AND entity_id = ?"
        var arguments: StatementArguments = [entity.name, id]
        if entity.ownerColumn != nil {
            sql += " AND user_id = ?"
            arguments += [userID]
        }
        return try Bool.fetchOne(db, sql: sql + ")", arguments: arguments) == true ? .deleted : .missing
    }
}

extension TenantStore {
    /// Whether the change feed carries entity `id` of kind `entity` to `user`, and why not.
    package func explain(_ entity: FeedEntity, id: String, to user: UserRecord) async throws -> FeedExplanation {
        try await database.read { db in
            try ChangeFeedReader(db: db, userID: user.id, role: user.role).explain(entity, id: id)
        }
    }
}
