import Foundation
import GRDB
import Synchronization
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The store boundary costs no extra trips to the database: a repository write is one write
/// transaction (the base, the queued write and the status counts) and one read of the result.
@Suite(.timeLimit(.minutes(1))) struct RepositoryTransactionTests {
    /// The transactions `body` runs on `store` (an in-memory store: every access shares one
    /// connection, so the trace sees reads and writes alike).
    private func transactions(on store: OfflineStore, _ body: () async throws -> Void) async throws -> [String] {
        let begun = Mutex<[String]>([])
        try await store.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                let sql = "\(event)"
                if sql.hasPrefix("BEGIN") { begun.withLock { $0.append(sql) } }
            }
        }
        try await body()
        try await store.writer.writeWithoutTransaction { db in db.trace(options: .statement, nil) }
        return begun.withLock { $0 }
    }

    @Test("progress.record is one write transaction and one read")
    func progressRecord() async throws {
        let harness = try await OfflineHarness()
        try await harness.seedProgress(OfflineFixture.progress(lessonID: "lesson-1", watched: 30, version: 3))
        let begun = try await transactions(on: harness.store) {
            try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: "lesson-1", watchedSeconds: 60)
        }
        #expect(begun.count <= 2, "\(begun)")
        #expect(begun.filter { !$0.contains("DEFERRED") }.count == 1, "one write transaction: \(begun)")
        // And the write was based on the cached record, in that same transaction
        let item = try #require(try await harness.outbox.pending().first)
        #expect(item.baseVersion == 3)
        #expect(harness.engine.status.pendingCount == 1)
    }
}
