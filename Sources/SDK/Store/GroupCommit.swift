import EduGoGuarded
import GRDB

/// Commits small write steps that arrive together in one transaction (a group commit).
///
/// A drain claims and settles items of many resources side by side. Each step on its own would be
/// a transaction, a commit to the write-ahead log and two thread hops; here every step waiting
/// when the writer gets to them shares one. A step runs in its own savepoint, so a step that
/// throws undoes only itself and gets its own error; the step's caller resumes once the shared
/// transaction committed (or with the commit's error when it did not), never before: what a
/// caller was told is committed.
///
/// Steps run on the writer's queue whether or not their caller's task was cancelled: an answer that
/// arrived after its drain was cancelled is still settled, so the write is not sent again.
final class GroupCommit: Sendable {
    /// One step: `perform` runs it in the shared transaction and returns how to resume its caller
    /// once the transaction's fate (`nil` when committed, else the commit's error) is known; `fail`
    /// resumes the caller of a step that never ran (the transaction could not begin).
    private struct Step: Sendable {
        let perform: @Sendable (Database) -> @Sendable (_ commitError: (any Error)?) -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private let writer: any DatabaseWriter
    private let pending = Guarded<[Step]>([])

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `work` in the next group's transaction, in a savepoint of its own.
    ///
    /// - Returns: what `work` returned, once that transaction committed.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let step = Step(perform: { db in
                var result: Result<T, any Error> = .failure(DatabaseError(resultCode: .SQLITE_MISUSE))
                do {
                    try db.inSavepoint {
                        result = .success(try work(db))
                        return .commit
                    }
                } catch {
                    result = .failure(error)
                }
                let outcome = result
                return { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: outcome)
                    }
                }
            }, fail: { error in continuation.resume(throwing: error) })
            pending.withLock { $0.append(step) }
            // One flush per step; a flush that finds the steps taken by an earlier one does nothing.
            writer.asyncWriteWithoutTransaction { [self] db in flush(db) }
        }
    }

    /// How many steps wait for the writer (for tests).
    var waitingSteps: Int { pending.withLock { $0.count } }

    /// Runs every waiting step in one transaction, then resumes their callers.
    private func flush(_ db: Database) {
        let steps = pending.withLock { steps in
            defer { steps = [] }
            return steps
        }
        guard !steps.isEmpty else { return }
        var resumes: [@Sendable ((any Error)?) -> Void] = []
        resumes.reserveCapacity(steps.count)
        do {
            try db.inTransaction {
                for step in steps { resumes.append(step.perform(db)) }
                return .commit
            }
        } catch {
            // The transaction did not commit: every step that ran is undone, whatever it returned,
            // and a step that never ran (the transaction could not begin) fails the same way.
            for resume in resumes { resume(error) }
            for step in steps.dropFirst(resumes.count) { step.fail(error) }
            return
        }
        for resume in resumes { resume(nil) }
    }
}
