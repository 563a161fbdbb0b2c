import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The drain's claims and settlements share transactions: steps that wait together commit
/// together, each in its own savepoint, and a caller hears back only after the commit.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitTests {
    private static func store() throws -> OfflineStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
        let store = try OfflineStore.open(directory: directory, tenantID: "demo", userID: "learner")
        try store.writer.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)") }
        return store
    }

    /// Holds the writer's queue until `release` is signalled, so that steps pile up behind it; for
    /// ten seconds at most, so a test that fails before signalling cannot hold the writer forever.
    private static func holdWriter(_ store: OfflineStore, until release: DispatchSemaphore) {
        store.writer.asyncWriteWithoutTransaction { _ in _ = release.wait(timeout: .now() + .seconds(10)) }
    }

    /// Waits until `count` steps wait for the writer; records a failure and throws after ten seconds.
    private static func waitForSteps(_ count: Int, in store: OfflineStore) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while store.groupCommit.waitingSteps < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("only \(store.groupCommit.waitingSteps) of \(count) steps waited for the writer within 10 s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func notes(_ store: OfflineStore) throws -> [String] {
        try store.writer.read { db in try String.fetchAll(db, sql: "SELECT text FROM notes ORDER BY id") }
    }

    @Test("steps that wait together are one transaction, and each caller gets its own result")
    func stepsShareATransaction() async throws {
        let store = try Self.store()
        let begun = Mutex(0)
        try await store.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if "\(event)".hasPrefix("BEGIN") { begun.withLock { $0 += 1 } }
            }
        }
        let release = DispatchSemaphore(value: 0)
        Self.holdWriter(store, until: release)
        try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let id = try await store.groupCommit.write { db in
                        try db.execute(sql: "INSERT INTO notes (text) VALUES (?)", arguments: ["note \(index)"])
                        return db.lastInsertedRowID
                    }
                    return (index, id)
                }
            }
            try await Self.waitForSteps(20, in: store)
            release.signal()
            var ids: Set<Int64> = []
            for try await (index, id) in group {
                // Each caller got the row its own step inserted.
                let text = try await store.writer.read { db in try String.fetchOne(db, sql: "SELECT text FROM notes WHERE id = ?", arguments: [id]) }
                #expect(text == "note \(index)")
                ids.insert(id)
            }
            #expect(ids.count == 20)
        }
        #expect(begun.withLock { $0 } == 1)
    }

    @Test("a step that throws undoes only its own writes and gets its own error; the others commit")
    func failingStepIsUndoneAlone() async throws {
        struct Refused: Error {}
        let store = try Self.store()
        let release = DispatchSemaphore(value: 0)
        Self.holdWriter(store, until: release)
        async let first: Void = store.groupCommit.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('kept 1')") }
        async let failing: Void = store.groupCommit.write { db in
            try db.execute(sql: "INSERT INTO notes (text) VALUES ('undone')")
            throw Refused()
        }
        async let last: Void = store.groupCommit.write { db in try db.execute(sql: "INSERT INTO notes (text) VALUES ('kept 2')") }
        try await Self.waitForSteps(3, in: store)
        release.signal()
        try await first
        let failed: Result<Void, any Error>
        do { failed = .success(try await failing) } catch { failed = .failure(error) }
        #expect(throws: Refused.self) { try failed.get() }
        try await last
        #expect(try Self.notes(store) == ["kept 1", "kept 2"])
    }

    @Test("a step runs and commits even when its caller's task was cancelled (an answer that arrived after a cancel is kept)")
    func cancelledCallerStillCommits() async throws {
        let store = try Self.store()
        let task = Task { () async throws -> Int64 in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.groupCommit.write { db in
                try db.execute(sql: "INSERT INTO notes (text) VALUES ('settled')")
                return db.lastInsertedRowID
            }
        }
        #expect(try await task.value == 1)
        #expect(try Self.notes(store) == ["settled"])
    }
}
