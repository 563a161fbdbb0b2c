import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The transaction duration metric counts transactions, not statements.
@Suite(.timeLimit(.minutes(3))) struct TransactionTimerTests {
    @Test("a read and a write of several statements each are timed once, and a statement outside a transaction is not")
    func timesEachTransactionOnce() async throws {
        let durations = Mutex<[Duration]>([])
        let database = try TenantDatabase.open(
            tenantID: try #require(TenantID("timer")), at: nil,
            transactionObserver: { duration in durations.withLock { $0.append(duration) } })
        durations.withLock { $0.removeAll() }  // the migrations' own transactions

        try await database.writer.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users")
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM courses")
        }
        try await database.writer.write { db in
            try db.execute(sql: "CREATE TABLE scratch (n INTEGER)")
            try db.execute(sql: "INSERT INTO scratch VALUES (1)")
            try db.execute(sql: "INSERT INTO scratch VALUES (2)")
        }
        try await database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO scratch VALUES (3)")
        }

        let timed = durations.withLock { $0 }
        #expect(timed.count == 2, "\(timed)")
        #expect(timed.allSatisfy { $0 >= .zero })
    }
}
