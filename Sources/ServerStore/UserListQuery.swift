import GRDB

/// The statements of the user directory: one page of the tenant's accounts, oldest first,
/// optionally of one role and matching a search, and how many that is.
///
/// The page walks `users_by_created` (or seeks `users_by_role_created`) in the list's order.
package struct UserListQuery: Sendable {
    package var role: UserRecord.Role?
    /// Search text, as the user typed it.
    package var search: String?
    /// Where the page continues (keyset), or `nil` to start at ``offset``.
    package var after: PageCursor?
    package var limit: Int
    package var offset: Int

    /// Oldest first, ties by id: the order of `users_by_created` and `users_by_role_created`.
    package static let order = "ORDER BY created_at, id"

    package init(role: UserRecord.Role?, search: String?, after: PageCursor? = nil, limit: Int, offset: Int = 0) {
        self.role = role
        self.search = search
        self.after = after
        self.limit = limit
        self.offset = offset
    }

    /// The page's rows, `limit + 1` of them (the extra one tells that another page follows); with
    /// ``after``, a seek of `(created_at, id) > (?, ?)`.
    package var page: ListStatement {
        var (conditions, arguments) = filter
        if let after {
            conditions.append("(created_at, id) > (?, ?)")
            arguments += [after.timestamp, after.id]
        }
        arguments += [limit + 1, offset]
        return ListStatement(
            sql: "SELECT * FROM users\(CourseListQuery.whereClause(conditions)) \(Self.order) LIMIT ? OFFSET ?",
            arguments: arguments)
    }

    package var count: ListStatement {
        let (conditions, arguments) = filter
        return ListStatement(sql: "SELECT COUNT(*) FROM users\(CourseListQuery.whereClause(conditions))", arguments: arguments)
    }

    private var filter: (conditions: [String], arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let role {
            conditions.append("role = ?")
            arguments += [role.rawValue]
        }
        if let search {
            if let match = FullTextQuery.expression(search) {
                // `+rowid`: checked while `users_by_created` is walked in order (see CourseListQuery).
                conditions.append("+rowid IN (SELECT rowid FROM users_search WHERE users_search MATCH ?)")
                arguments += [match]
            } else {
                conditions.append("0")
            }
        }
        return (conditions, arguments)
    }
}
