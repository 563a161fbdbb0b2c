import GRDB
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The live stream decides in memory who hears of a change; the feed decides in SQL. Both must
/// give the same answer for every shape of logged change.
@Suite struct ChangeAudienceTests {
    @Test("ChangeAudience.hears agrees with its SQL condition for every entity, owner and draft, for students, teachers and admins")
    func swiftAgreesWithSQL() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE changes (seq INTEGER PRIMARY KEY, entity TEXT, user_id TEXT, draft_of TEXT)")
            var seq: Int64 = 0
            for entity in ChangeLog.Entity.allCases.map(\.rawValue) + ["unknown"] {
                for owner in [nil, "me", "other"] as [String?] {
                    for draft in [nil, "me", "other"] as [String?] {
                        seq += 1
                        try db.execute(
                            sql: "INSERT INTO changes VALUES (?, ?, ?, ?)", arguments: [seq, entity, owner, draft])
                    }
                }
            }
        }
        let rows = try queue.read { db in try LoggedChange.fetchAll(db, sql: "SELECT * FROM changes ORDER BY seq") }
        #expect(rows.count == 54)
        for audience in [ChangeAudience(userID: "me", isAdmin: false), ChangeAudience(userID: "me", isAdmin: true)] {
            let sql = audience.sql
            let heardBySQL = try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT seq FROM changes WHERE \(sql.condition) ORDER BY seq", arguments: sql.arguments)
            }
            let heardInMemory = rows.filter(audience.hears).map(\.seq)
            #expect(heardInMemory == heardBySQL, "admin: \(audience.isAdmin)")
            #expect(!heardBySQL.isEmpty && heardBySQL.count < rows.count)
        }
    }
}
