import GRDB

/// Told what each committed transaction of a tenant logged and revoked (the live event streams'
/// hub is one).
package protocol TenantCommitListener: Sendable {
    /// A transaction of `tenant` committed `changes` and revoked `revokedSessions`; with
    /// `allSessionsSuspect`, it also deleted sessions it cannot name.
    func committed(_ tenant: TenantID, changes: [LoggedChange], revokedSessions: Set<String>, allSessionsSuspect: Bool)
    /// `tenant`'s data changed in a way no list of changes describes.
    func replaced(_ tenant: TenantID)
}

/// The one observer of a tenant's writer: after each commit it empties the tenant's caches that
/// the transaction made stale, then tells the ``TenantCommitListener`` (if any) what it logged and
/// revoked.
///
/// Installed on the tenant's writer for the database's lifetime; GRDB calls it on the writer's
/// serial queue (which is what makes its plain properties safe), after the commit is visible and
/// before the write returns to its caller. A transaction that logged a change empties the
/// ``ChangeDependentCache`` (the server's list pages); one that changed `users` or `sessions` empties the ``LiveSessionCache`` (both
/// before the listener hears of it, so nothing the listener wakes can read a stale entry). It notes
/// the row ids of new `changes` rows and of changed `sessions` rows while the transaction runs,
/// and after the commit reads just those rows by primary key, so the listener learns who may hear
/// of the commit without any further query per stream.
package final class CommitObserver: TransactionObserver {
    private let tenant: TenantID
    private let caches: TenantCaches
    private let listener: (any TenantCommitListener)?
    private var changeRange: ClosedRange<Int64>?
    private var sessionRows: Set<Int64> = []
    private var sessionsDeleted = false
    private var accountsChanged = false

    package init(tenant: TenantID, caches: TenantCaches, listener: (any TenantCommitListener)?) {
        self.tenant = tenant
        self.caches = caches
        self.listener = listener
    }

    package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table): table == "changes" || table == "users" || table == "sessions"
        case .update(let table, _), .delete(let table): table == "users" || table == "sessions"
        }
    }

    package func databaseDidChange(with event: DatabaseEvent) {
        switch (event.tableName, event.kind) {
        case ("changes", _):
            let row = event.rowID
            changeRange = changeRange.map { min($0.lowerBound, row)...max($0.upperBound, row) } ?? row...row
        case ("sessions", .update):
            accountsChanged = true
            sessionRows.insert(event.rowID)
        case ("sessions", .delete):
            accountsChanged = true
            sessionsDeleted = true
        case ("sessions", _), ("users", _):
            accountsChanged = true
        default:
            // GRDB hands an observer every event of a statement it observes: a course update's
            // trigger logs a change, and the update itself arrives here too.
            break
        }
    }

    package func databaseDidCommit(_ db: Database) {
        defer { reset() }
        if changeRange != nil { caches.changeDependent?.invalidate() }
        if accountsChanged { caches.liveSessions.invalidate() }
        guard let listener, changeRange != nil || !sessionRows.isEmpty || sessionsDeleted else { return }
        do {
            var changes: [LoggedChange] = []
            var revoked: Set<String> = []
            if let range = changeRange {
                changes = try LoggedChange.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT seq, entity, user_id, draft_of FROM changes WHERE seq BETWEEN ? AND ? ORDER BY seq"),
                    arguments: [range.lowerBound, range.upperBound])
            }
            if !sessionRows.isEmpty {
                let marks = databaseQuestionMarks(count: sessionRows.count)
                revoked = Set(try String.fetchAll(
                    db, sql: "SELECT id FROM sessions WHERE rowid IN (\(marks)) AND revoked_at IS NOT NULL",
                    arguments: StatementArguments(Array(sessionRows))))
            }
            listener.committed(tenant, changes: changes, revokedSessions: revoked, allSessionsSuspect: sessionsDeleted)
        } catch {
            // Not knowing who may hear of the commit, every stream is told to look.
            listener.replaced(tenant)
        }
    }

    package func databaseDidRollback(_ db: Database) {
        reset()
    }

    private func reset() {
        changeRange = nil
        sessionRows = []
        sessionsDeleted = false
        accountsChanged = false
    }
}
