import GRDB

/// One statement of a list, exactly as the store runs it: its SQL and its arguments.
///
/// List queries (``CourseListQuery`` and its siblings) build these, the store runs them, and the
/// plan tests run `EXPLAIN QUERY PLAN` on the very same value, so the tested plan is the plan
/// the server uses. Hashable, so a statement is its own key (``ListTotals``).
package struct ListStatement: Hashable, Sendable {
    package var sql: String
    package var arguments: StatementArguments

    package init(sql: String, arguments: StatementArguments) {
        self.sql = sql
        self.arguments = arguments
    }
}
