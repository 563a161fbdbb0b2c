import Foundation
import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The change feed's delta page seeks a bounded window of the log by sequence: its cost follows
/// the page, not the length of the log after the cursor.
@Suite struct ChangeFeedQueryPlanTests {
    @Test("the delta statement seeks a bounded window of changes by its primary key from the cursor and never scans the log")
    func deltaSeeksByPrimaryKey() throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("plan-test")), at: nil)
        for audience in [ChangeAudience(userID: "u-1", isAdmin: false), ChangeAudience(userID: "u-1", isAdmin: true)] {
            let statement = ChangeFeedReader.deltaStatement(after: 42, through: 2_042, audience: audience, limit: 501)
            let plan = try database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                    .map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("SEARCH changes USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN changes") }, "\(plan)")
        }
    }
}
