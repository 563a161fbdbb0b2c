import GRDB

/// The statements of a course list: one page of what a caller may see, newest first, and how
/// many that is.
///
/// Each role's page is an index seek in the list's order, so it costs the page, not the catalogue:
/// students seek `published = 1` (`courses_by_published_created`, or `…_category_created`),
/// admins walk `courses_by_created` (or `courses_by_category_created`), and a teacher's two
/// branches, the published courses and their own drafts, are seeked separately and merged by the
/// compound `ORDER BY … LIMIT` (an `OR` of the two would defeat both indexes and sort).
///
/// A search is read the same way, each row checked against the search's match set. The store
/// first reads only the matches among the newest rows (``window``, ``page(within:)``, see
/// ``SearchWindow``), so a word most courses hold costs what the page costs, and reads the whole
/// match set (``page``) only when they do not fill the page.
package struct CourseListQuery: Sendable {
    package var role: UserRecord.Role
    package var userID: String
    package var category: String?
    /// Search text, as the user typed it (``FullTextQuery`` states what it matches). Matches keep
    /// the list's order, newest first: a rank would change as the catalogue does, and a cursor
    /// must name a fixed place.
    package let search: String?
    /// The search's `MATCH` expression (``FullTextQuery``), `nil` when it has no word.
    private let match: String?
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
        self.match = search.flatMap(FullTextQuery.expression)
        self.after = after
        self.limit = limit
        self.offset = offset
    }

    /// The page's rows, `limit + 1` of them (the extra one tells that another page follows):
    /// ``CourseRecord/selection`` and then the course's lesson count. With ``after`` each branch
    /// seeks `(created_at, id) < (?, ?)`, the index's own order, so a deep page costs a first one.
    package var page: ListStatement { page(within: nil) }

    /// The page as ``page`` reads it, but of a search looking only among the rows of `window`:
    /// the search table is asked for the matches in the window's `rowid` range, and each branch
    /// stops at the window's last row. Exact when it comes back full or the window holds every
    /// row (``SearchWindow``); the store asks ``page`` otherwise.
    package func page(within window: SearchWindow?) -> ListStatement {
        var (sql, arguments) = matches(within: window)
        let branches = CourseAccess.visibleBranches(role: role, userID: userID).map { branch in
            let conditions = self.conditions(branch, searching: true, window: window, &arguments)
            return """
                SELECT \(CourseRecord.selection), (SELECT COUNT(*) FROM lessons WHERE lessons.course_id = courses.id) AS lesson_count
                FROM courses\(Self.whereClause(conditions))
                """
        }
        arguments += [limit + 1, offset]
        sql += branches.joined(separator: "\nUNION ALL\n") + "\n\(Self.order) LIMIT ? OFFSET ?"
        return ListStatement(sql: sql, arguments: arguments)
    }

    /// How many rows a search looks at first (``window``): four times the rows up to the page's
    /// end, so a word at least one course in four holds fills the page from them. `nil` when
    /// there is no search, or the page starts so deep (by `page=`) that the window would not be
    /// a cheap first look.
    package var windowSize: Int? {
        guard match != nil else { return nil }
        let size = 4 * (offset + limit + 1)
        return size <= Self.largestWindow ? size : nil
    }

    /// The largest ``windowSize``: four pages of 100 rows.
    package static let largestWindow = 404

    /// The first ``windowSize`` rows the caller may see from where the page starts, newest first:
    /// each one's `row_id`, `created_at` and `id`, read from the list's indexes alone (the
    /// category is a condition, the search is not). `nil` when ``windowSize`` is.
    package var window: ListStatement? {
        guard let windowSize else { return nil }
        var arguments = StatementArguments()
        let branches = CourseAccess.visibleBranches(role: role, userID: userID).map { branch in
            let conditions = self.conditions(branch, searching: false, window: nil, &arguments)
            return "SELECT courses.rowid AS row_id, created_at, id FROM courses\(Self.whereClause(conditions))"
        }
        arguments += [windowSize]
        return ListStatement(
            sql: branches.joined(separator: "\nUNION ALL\n") + "\n\(Self.order) LIMIT ?", arguments: arguments)
    }

    /// Where a page asked for by number (`page=`, ``offset`` rows in) continues: the order key of
    /// the last row it skips, read from the list's indexes alone. The store then reads the page
    /// from that key as ``after`` does, so the rows skipped cost an index entry each instead of a
    /// table row and a lesson count each (for a teacher's two branches, merged in order, SQLite
    /// computes every skipped row's columns). `nil` without an offset or with a cursor.
    package var skipped: ListStatement? {
        guard offset > 0, after == nil else { return nil }
        var (sql, arguments) = matches(within: nil)
        let branches = CourseAccess.visibleBranches(role: role, userID: userID).map { branch in
            let conditions = self.conditions(branch, searching: true, window: nil, &arguments)
            return "SELECT created_at, id FROM courses\(Self.whereClause(conditions))"
        }
        arguments += [offset - 1]
        sql += branches.joined(separator: "\nUNION ALL\n") + "\n\(Self.order) LIMIT 1 OFFSET ?"
        return ListStatement(sql: sql, arguments: arguments)
    }

    /// The list from the row after ``skipped``'s key on: no offset, continuing from `key`.
    package func continuing(after key: PageCursor) -> CourseListQuery {
        var list = self
        list.after = key
        list.offset = 0
        return list
    }

    /// How many courses the caller may see with this filter (a count over the same indexes).
    package var count: ListStatement {
        var (sql, arguments) = matches(within: nil)
        var (conditions, visibility) = CourseAccess.visibleSQL(role: role, userID: userID)
        arguments += visibility
        filter(&conditions, &arguments, searching: true)
        return ListStatement(sql: sql + "SELECT COUNT(*) FROM courses\(Self.whereClause(conditions))", arguments: arguments)
    }

    /// The search's match set as the common table expression `matches` that every branch reads
    /// (a teacher's two branches share one read of the search table), limited to the window's
    /// `rowid` range when there is one; empty without a search.
    private func matches(within window: SearchWindow?) -> (sql: String, arguments: StatementArguments) {
        guard let match else { return ("", []) }
        guard let window else {
            return ("WITH matches AS (SELECT rowid FROM courses_search WHERE courses_search MATCH ?)\n", [match])
        }
        return (
            "WITH matches AS (SELECT rowid FROM courses_search WHERE courses_search MATCH ? AND rowid BETWEEN ? AND ?)\n",
            [match, window.rowIDs.lowerBound, window.rowIDs.upperBound]
        )
    }

    /// A branch's conditions, its arguments appended to `arguments`: its visibility, the filter,
    /// where the page continues (``after``), and where the window ends.
    private func conditions(
        _ branch: (conditions: [String], arguments: StatementArguments), searching: Bool, window: SearchWindow?,
        _ arguments: inout StatementArguments
    ) -> [String] {
        var conditions = branch.conditions
        arguments += branch.arguments
        filter(&conditions, &arguments, searching: searching)
        if let after {
            conditions.append("(created_at, id) < (?, ?)")
            arguments += [after.timestamp, after.id]
        }
        if let last = window?.last {
            conditions.append("(created_at, id) >= (?, ?)")
            arguments += [last.timestamp, last.id]
        }
        return conditions
    }

    /// The category condition, and the search's unless `searching` is false, after the visibility ones.
    private func filter(_ conditions: inout [String], _ arguments: inout StatementArguments, searching: Bool) {
        if let category {
            conditions.append("category = ?")
            arguments += [category]
        }
        if searching, search != nil {
            // `+rowid`: the match set is read once and checked while the list's index is walked in
            // order, so the page needs no sort; without the `+` the planner may drive from the
            // matches and sort them all.
            conditions.append(match == nil ? "0" : "+rowid IN matches")
        }
    }

    package static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }
}
