import Foundation
import GRDB

/// The in-memory state of one tenant (its caches and its ``ReplacementGate``), kept by the registry
/// per tenant id while its database is closed and reopened, so a database reopened after its pool
/// closed starts from the same state.
package struct TenantCaches: Sendable {
    package var liveSessions = LiveSessionCache()
    package var listTotals = ListTotals()
    package var replacements = ReplacementGate()
    /// The owner's cache of what the synced rows were (the server's list pages), if any.
    package let changeDependent: (any ChangeDependentCache)?

    package init(changeDependent: (any ChangeDependentCache)? = nil) {
        self.changeDependent = changeDependent
    }
}

/// One tenant's database: the only place that tenant's rows live.
///
/// Each tenant gets its own SQLite file (or in-memory database), so a query issued for one
/// tenant cannot reach another tenant's rows, whatever its `WHERE` clause says.
package struct TenantDatabase: Sendable {
    package let tenantID: TenantID
    let writer: any DatabaseWriter
    /// Users of recently authenticated live sessions, emptied by every commit that changes
    /// `users` or `sessions` (``CommitObserver``). One per tenant id, shared by every pool opened
    /// for the tenant (the server's `TenantRegistry` keeps it across closing and reopening), so a
    /// commit through any of them empties the one cache every request reads.
    package var liveSessions: LiveSessionCache { caches.liveSessions }
    /// Lists' totals, each kept for as long as the change sequence it was counted at.
    package var listTotals: ListTotals { caches.listTotals }
    /// Held by a request across transactions that must see the same data; a restore waits for it.
    package var replacements: ReplacementGate { caches.replacements }
    /// The tenant's in-memory state, kept by the registry per tenant id.
    let caches: TenantCaches

    init(tenantID: TenantID, writer: any DatabaseWriter, caches: TenantCaches) {
        self.tenantID = tenantID
        self.writer = writer
        self.caches = caches
    }

    /// Opens (creating if needed) and migrates a tenant database.
    ///
    /// - Parameters:
    ///   - transactionObserver: Told how long each transaction took (`BEGIN` to `COMMIT`/`ROLLBACK`).
    ///   - now: The server's clock, which dates each entry of the change log.
    ///   - caches: The tenant's in-memory caches; the registry passes the ones it keeps for the
    ///     tenant id.
    ///   - commitListener: Told what each commit logged and revoked (live event streams), after the
    ///     commit emptied the caches it made stale (``CommitObserver``).
    package static func open(
        tenantID: TenantID, at url: URL?, transactionObserver: (@Sendable (Duration) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, caches: TenantCaches = TenantCaches(),
        commitListener: (any TenantCommitListener)? = nil
    ) throws -> TenantDatabase {
        let writer: any DatabaseWriter
        var configuration = connectionConfiguration(now: now, transactionObserver: transactionObserver)
        if let url {
            configuration.maximumReaderCount = 4
            configuration.prepareDatabase { db in
                // WAL + NORMAL: a committed transaction survives a process crash (`kill -9`);
                // only an OS crash could lose the last commits.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            writer = try DatabasePool(path: url.path, configuration: configuration)
        } else {
            writer = try DatabaseQueue(configuration: configuration)
        }
        try TenantMigrations.migrator.migrate(writer)
        // A new database (or an imported one) starts its own history.
        try ChangeTimeline.mintIfMissing(writer, now: now())
        writer.add(
            transactionObserver: CommitObserver(tenant: tenantID, caches: caches, listener: commitListener), extent: .databaseLifetime)
        return TenantDatabase(tenantID: tenantID, writer: writer, caches: caches)
    }

    /// What every connection to a tenant database is opened with, file-backed or in memory.
    static func connectionConfiguration(
        now: @escaping @Sendable () -> Date = { Date() }, transactionObserver: (@Sendable (Duration) -> Void)? = nil
    ) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in ChangeLog.installClock(on: db, now: now) }
        if let transactionObserver {
            configuration.prepareDatabase { db in
                TransactionTimer(observer: transactionObserver).install(on: db)
            }
        }
        return configuration
    }

    /// A weak reference to this database's connections, which lets them close when the last
    /// holder of the database lets go of it.
    ///
    /// There is deliberately no `close()`: a request or a stream that holds a tenant's database
    /// may read it at any moment, and GRDB's read of a closed `DatabaseQueue` passes a null
    /// connection to `sqlite3_get_autocommit` (a SIGSEGV at address 0x65, the `autoCommit`
    /// field's offset). A database closes when nothing holds it any more (GRDB closes its
    /// connections in `deinit`); the registry keeps a ``Lease`` to hand the same connections to
    /// the next request for as long as any holder keeps them open.
    package var lease: Lease { Lease(self) }

    /// A weak hold on one opened tenant database: ``database`` answers it while someone else
    /// still holds it, `nil` once its connections closed.
    package struct Lease: Sendable {
        package let tenantID: TenantID
        private weak var writer: (any DatabaseWriter)?
        private let caches: TenantCaches

        init(_ database: TenantDatabase) {
            tenantID = database.tenantID
            writer = database.writer
            caches = database.caches
        }

        /// The database, while any holder keeps its connections open.
        package var database: TenantDatabase? {
            guard let writer else { return nil }
            return TenantDatabase(tenantID: tenantID, writer: writer, caches: caches)
        }
    }

    /// Answers whether the database can be read.
    package func isReachable() async -> Bool {
        (try? await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
