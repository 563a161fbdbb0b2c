import GRDB

/// Times each transaction of one SQLite connection from its `BEGIN` to its `COMMIT` or
/// `ROLLBACK` (its completion, so the commit's own write is included), through SQLite's profile
/// trace.
///
/// A transaction's start and end are told by the connection leaving and re-entering SQLite's
/// autocommit mode after a statement, not by the statement's SQL text: GRDB trims that text
/// with Foundation on every read of it, which cost a fifth of a course list's instructions
/// (BENCHMARKS.md). One timer belongs to one connection and runs on that connection's queue.
package final class TransactionTimer {
    private let observer: @Sendable (Duration) -> Void
    private var started: ContinuousClock.Instant?

    package init(observer: @escaping @Sendable (Duration) -> Void) {
        self.observer = observer
    }

    package func install(on db: Database) {
        db.trace(options: .profile) { [unowned db, self] event in
            guard case .profile(_, let duration) = event else { return }
            self.statementEnded(insideTransaction: db.isInsideTransaction, after: duration)
        }
    }

    private func statementEnded(insideTransaction: Bool, after duration: Double) {
        let now = ContinuousClock.now
        switch (started, insideTransaction) {
        case (nil, true):
            started = now - .seconds(duration)
        case (let start?, false):
            started = nil
            observer(now - start)
        default:
            break
        }
    }
}
