import GRDB
import Synchronization

/// Times each transaction of one SQLite connection from its `BEGIN` to its `COMMIT` or
/// `ROLLBACK` (its completion, so the commit's own write is included), through SQLite's
/// profile trace.
final class TransactionTimer: Sendable {
    private let observer: @Sendable (Duration) -> Void
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    init(observer: @escaping @Sendable (Duration) -> Void) {
        self.observer = observer
    }

    func install(on db: Database) {
        db.trace(options: .profile) { [self] event in
            guard case .profile(let statement, _) = event else { return }
            self.saw(statement.sql)
        }
    }

    private func saw(_ sql: String) {
        let keyword = sql.prefix(8).uppercased()
        if keyword.hasPrefix("BEGIN") {
            started.withLock { $0 = ContinuousClock.now }
        } else if keyword.hasPrefix("COMMIT") || keyword.hasPrefix("ROLLBACK") || keyword.hasPrefix("END") {
            let start = started.withLock { start -> ContinuousClock.Instant? in
                defer { start = nil }
                return start
            }
            if let start { observer(ContinuousClock.now - start) }
        }
    }
}
