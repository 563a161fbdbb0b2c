import GRDB

/// One kind of entity the change feed carries: everything the server knows about it as a synced
/// resource, in one place.
///
/// From the registry of descriptors (``FeedEntity/all``) come the triggers that log its changes
/// (``FeedTriggers``), who hears of a change (``ChangeAudience``) and how the feed reads its
/// current state (``ChangeFeedReader``). Adding a synced resource is a descriptor here, its
/// table's migration calling ``FeedTriggers/migrate(_:)``, and its wire form in the HTTP layer.
package struct FeedEntity: Sendable {
    /// Where a row stands with respect to courses.
    package enum Placement: Sendable, Equatable {
        /// The row is a course (`courses`, whose `published` and `teacher_id` decide who sees it).
        case course
        /// The row belongs to the course its `column` names.
        case inCourse(column: String)
        /// The row belongs to no course.
        case outsideCourses
    }

    /// Who hears of a change of a row.
    package enum Audience: Sendable, Equatable {
        /// Everyone who may see the row's course: while it is a draft, its teacher and admins.
        case course
        /// Only the user its `column` names (the feed carries a user's own rows only).
        case owner(column: String)
    }

    /// The entity's name: the feed's `type` and the log's `entity`.
    package var name: String
    /// The table its rows live in.
    package var table: String
    /// The column the feed names a row by (unique among the rows one caller may see).
    package var idColumn: String
    package var placement: Placement
    package var audience: Audience
    /// Whether a course's publishing, unpublishing or hand-over is a change of its rows too (who
    /// may see them follows the course).
    package var followsCourseVisibility: Bool
    /// Whether its rows are deleted before their course is (not by the cascade after it), so that
    /// their changes still see whether the course was a draft.
    package var deletedBeforeCourse: Bool
    /// The columns whose update is a change; `nil` for every column.
    package var changeColumns: [String]? = nil
    /// Reads the rows a statement selects (`SELECT * FROM` ``table``) as the feed's entries.
    /// (Its memberwise initializer, internal, is how a descriptor is made: in this target, or in
    /// a test with `@testable import`.)
    package var fetch: Fetch

    /// Runs `sql` with `arguments` and answers each row it selects as an entry of the feed.
    package typealias Fetch = @Sendable (_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Entry]

    /// A row as the feed carries it: its id, its course and its state (what the wire encodes).
    package struct Entry: Sendable {
        package var id: String
        package var courseID: String?
        package var state: any Sendable
    }

    /// The column naming a row's course, if it has one (a course's own id).
    package var courseColumn: String? {
        switch placement {
        case .course: idColumn
        case .inCourse(let column): column
        case .outsideCourses: nil
        }
    }

    /// The column naming a row's owner, if only its owner hears of it.
    package var ownerColumn: String? {
        guard case .owner(let column) = audience else { return nil }
        return column
    }

    /// Reads each row as a `Record`, named by `entry`.
    package static func records<Record: FetchableRecord & Sendable>(
        _ type: Record.Type, entry: @escaping @Sendable (Record) -> (id: String, courseID: String?)
    ) -> Fetch {
        { db, sql, arguments in
            try Record.fetchAll(db, sql: sql, arguments: arguments).map { record in
                let key = entry(record)
                return Entry(id: key.id, courseID: key.courseID, state: record)
            }
        }
    }
}
