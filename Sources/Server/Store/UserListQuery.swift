import GRDB

/// The statements of the user directory: one page of the tenant's accounts, oldest first,
/// optionally of one role and matching a search, and how many that is.
///
/// The page walks `users_by_created` (or seeks `users_by_role_created`) in the list's order.
struct UserListQuery: Sendable {
    var role: UserRecord.Role?
    /// Search text, as the user typed it.
    var search: String?
    var limit: Int
    var offset: Int

    /// Oldest first, ties by id: the order of `users_by_created` and `users_by_role_created`.
    static let order = "ORDER BY created_at, id"

    init(role: UserRecord.Role?, search: String?, limit: Int, offset: Int = 0) {
        self.role = role
        self.search = search
        self.limit = limit
        self.offset = offset
    }

    var page: ListStatement {
        var (conditions, arguments) = filter
        arguments += [limit, offset]
        return ListStatement(
            sql: "SELECT * FROM users\(CourseListQuery.whereClause(conditions)) \(Self.order) LIMIT ? OFFSET ?",
            arguments: arguments)
    }

    var count: ListStatement {
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
            conditions.append("search_text LIKE ? ESCAPE '\\'")
            arguments += [SearchText.likePattern(search)]
        }
        return (conditions, arguments)
    }
}
