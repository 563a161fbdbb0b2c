import GRDB

/// The statements of a course list: one page of what a caller may see, newest first, and how
/// many that is.
///
/// Each role's page is an index seek in the list's order, so it costs the page, not the catalogue:
/// students seek `published = 1` (`courses_by_published_created`, or `…_category_created`),
/// admins walk `courses_by_created` (or `courses_by_category_created`), and a teacher's two
/// branches, the published courses and their own drafts, are seeked separately and merged by the
/// compound `ORDER BY … LIMIT` (an `OR` of the two would defeat both indexes and sort).
package struct CourseListQuery: Sendable {
    package var role: UserRecord.Role
    package var userID: String
    package var category: String?
    /// Search text, as the user typed it (``FullTextQuery`` states what it matches). Matches keep
    /// the list's order, newest first: a rank would change as the catalogue does, and a cursor
    /// must name a fixed place.
    package var search: String?
    /// Where the page continues (keyset), or `nil` to start at ``offset``.
    package var after: PageCursor?
    package var limit: Int
    package var offset: Int

    /// The list's order: newest first, ties by id, both descending so every index above serves
    /// it by walking backwards.
    package static let order = "ORDER BY created_at DESC, id DESC"

    package init(
        role: UserRecord.Role, userID: String, category: String?, search: String?, after: PageCursor? = nil,
        limit: Int, offset: Int = 0
    ) {
        self.role = role
        self.userID = userID
        self.category = category
        self.search = search
        self.after = after
        self.limit = limit
        self.offset = offset
    }

    /// The page's rows, `limit + 1` of them (the extra one tells that another page follows):
    /// every column of `courses` and the course's `lesson_count`. With ``after`` each branch
    /// seeks `(created_at, id) < (?, ?)`, the index's own order, so a deep page costs a first one.
    package var page: ListStatement {
        var arguments = StatementArguments()
        let branches = CourseAccess.visibleBranches(role: role, userID: userID).map { branch in
            var conditions = branch.conditions
            arguments += branch.arguments
            filter(&conditions, &arguments)
            if let after {
                conditions.append("(created_at, id) < (?, ?)")
                arguments += [after.timestamp, after.id]
            }
            return """
                SELECT courses.*, (SELECT COUNT(*) FROM lessons WHERE lessons.course_id = courses.id) AS lesson_count
                FROM courses\(Self.whereClause(conditions))
                """
        }
        arguments += [limit + 1, offset]
        return ListStatement(
            sql: branches.joined(separator: "\nUNION ALL\n") + "\n\(Self.order) LIMIT ? OFFSET ?", arguments: arguments)
    }

    /// How many courses the caller may see with this filter (a count over the same indexes).
    package var count: ListStatement {
        var (conditions, arguments) = CourseAccess.visibleSQL(role: role, userID: userID)
        filter(&conditions, &arguments)
        return ListStatement(sql: "SELECT COUNT(*) FROM courses\(Self.whereClause(conditions))", arguments: arguments)
    }

    /// The category and search conditions, after the visibility ones.
    private func filter(_ conditions: inout [String], _ arguments: inout StatementArguments) {
        if let category {
            conditions.append("category = ?")
            arguments += [category]
        }
        if let search {
            if let match = FullTextQuery.expression(search) {
                // `+rowid`: the match set is read once and checked while the list's index is walked in
                // order, so the page needs no sort; without the `+` the planner may drive from the
                // matches and sort them all.
                conditions.append("+rowid IN (SELECT rowid FROM courses_search WHERE courses_search MATCH ?)")
                arguments += [match]
            } else {
                conditions.append("0")
            }
        }
    }

    package static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }
}
