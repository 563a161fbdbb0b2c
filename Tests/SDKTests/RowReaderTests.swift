import Foundation
import GRDB
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The row readers written by hand for speed read what the Codable path writes: every column,
/// into the right property. A property added later and left out of the reader fails here.
@Suite(.timeLimit(.minutes(1))) struct RowReaderTests {
    @Test("QueuedWrite's init(row:) reads back every field the Codable path inserted")
    func queuedWriteRowReaderReadsEveryField() throws {
        let store = try OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: "user-1")
        // Every optional set, each field a distinct value: a skipped or swapped column shows
        var record = QueuedWrite(
            id: nil, state: .inFlight, resource: ResourceKey.progress(course: "course-1", lesson: "lesson-1").description,
            operation: .update, method: "PUT", path: "/v1/courses/course-1/lessons/lesson-1/progress",
            body: Data(#"{"watched_seconds":90}"#.utf8), baseVersion: 4, baseJson: Data(#"{"version":4}"#.utf8),
            idempotencyKey: "key-1", createdAt: Date(timeIntervalSince1970: 1_800_000_000), attempts: 2,
            nextAttemptAt: Date(timeIntervalSince1970: 1_800_000_060), lastError: "HTTP 503",
            failedAt: Date(timeIntervalSince1970: 1_800_000_120), reason: "not_found", status: 404,
            problem: Data(#"{"code":"not_found"}"#.utf8), serverVersion: 5, serverJson: Data(#"{"version":5}"#.utf8),
            detectedAt: Date(timeIntervalSince1970: 1_800_000_180))
        try store.writer.write { db in try record.insert(db) }
        for child in Mirror(reflecting: record).children {
            #expect("\(child.value)" != "nil", "\(child.label ?? "?") is unset: the test would not see it dropped")
        }

        let row = try #require(try store.writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM queued_writes") })
        #expect(try QueuedWrite(row: row) == record)
        // And the row holds no column the record does not know
        #expect(row.columnNames.count == Mirror(reflecting: record).children.count)
    }
}
