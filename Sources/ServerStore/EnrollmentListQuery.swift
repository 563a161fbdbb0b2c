import GRDB

/// The statements of a learner's enrollments: one page of the enrollments in courses they may
/// see, newest first, and how many that is.
///
/// The page seeks `enrollments_by_user_enrolled` in the list's order and looks each enrollment's
/// course up by its key to apply the visibility rule, so it costs the page, not the catalogue.
/// `CROSS JOIN` keeps `enrollments` the outer loop whatever statistics the planner holds (SQLite
/// never reorders the operands of a `CROSS JOIN`): driving from `courses` would walk every
/// visible course.
package struct EnrollmentListQuery: Sendable {
    package var role: UserRecord.Role
    package var userID: String
    /// Where the page continues (keyset), or `nil` to start at ``offset``.
    package var after: PageCursor?
    package var limit: Int
    package var offset: Int

    /// Newest first, ties by course id, both descending: `enrollments_by_user_enrolled` backwards.
    package static let order = "ORDER BY enrollments.enrolled_at DESC, enrollments.course_id DESC"

    package init(role: UserRecord.Role, userID: String, after: PageCursor? = nil, limit: Int, offset: Int = 0) {
        self.role = role
        self.userID = userID
        self.after = after
        self.limit = limit
        self.offset = offset
    }

    /// The page's rows, `limit + 1` of them (the extra one tells that another page follows); with
    /// ``after``, a seek of `(enrolled_at, course_id) < (?, ?)`.
    package var page: ListStatement {
        var (conditions, arguments) = filter
        if let after {
            conditions.append("(enrollments.enrolled_at, enrollments.course_id) < (?, ?)")
            arguments += [after.timestamp, after.id]
        }
        arguments += [limit + 1, offset]
        return ListStatement(
            sql: """
                SELECT enrollments.* FROM enrollments CROSS JOIN courses ON courses.id = enrollments.course_id
                WHERE \(conditions.joined(separator: " AND ")) \(Self.order) LIMIT ? OFFSET ?
                """,
            arguments: arguments)
    }

    package var count: ListStatement {
        let (conditions, arguments) = filter
        return ListStatement(
            sql: """
                SELECT COUNT(*) FROM enrollments CROSS JOIN courses ON courses.id = enrollments.course_id
                WHERE \(conditions.joined(separator: " AND "))
                """,
            arguments: arguments)
    }

    private var filter: (conditions: [String], arguments: StatementArguments) {
        let (visible, visibleArguments) = CourseAccess.visibleSQL(role: role, userID: userID)
        return (["enrollments.user_id = ?"] + visible, [userID] + visibleArguments)
    }
}
