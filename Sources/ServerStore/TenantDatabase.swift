import Foundation
import GRDB

/// The in-memory caches of one tenant, kept by the registry per tenant id while its database is
/// closed and reopened: a pool still held by a request after its tenant was dropped from the open
/// set writes through the same caches as the reopened one, so an invalidation through either
/// reaches both.
package struct TenantCaches: Sendable {
    package var liveSessions = LiveSessionCache()
    package var pages: PageCache

    /// - Parameter pageCapacity: The most list pages kept; 0 keeps none.
    package init(pageCapacity: Int = PageCache.defaultCapacity) {
        pages = PageCache(capacity: pageCapacity)
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
    /// `users` or `sessions`. One per tenant id, shared by every pool opened for the tenant
    /// (the server's `TenantRegistry` keeps it across closing and reopening), so a commit
    /// through any of them empties the one cache every request reads.
    package let liveSessions: LiveSessionCache
    /// Lists' totals, each kept for as long as the change sequence it was counted at.
    package let listTotals = ListTotals()
    /// Encoded list pages, emptied by every commit that logs a change.
    package let pages: PageCache

    package init(tenantID: TenantID, writer: any DatabaseWriter, liveSessions: LiveSessionCache, pages: PageCache) {
        self.tenantID = tenantID
        self.writer = writer
        self.liveSessions = liveSessions
        self.pages = pages
    }

    /// Opens (creating if needed) and migrates a tenant database.
    ///
    /// - Parameters:
    ///   - transactionObserver: Told how long each transaction took (`BEGIN` to `COMMIT`/`ROLLBACK`).
    ///   - now: The server's clock, which dates each entry of the change log.
    ///   - caches: The tenant's in-memory caches; the registry passes the ones it keeps for the
    ///     tenant id.
    ///   - commitListener: Told what each commit logged and revoked (live event streams).
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
        writer.add(transactionObserver: LiveSessionCache.Invalidator(caches.liveSessions), extent: .databaseLifetime)
        if let commitListener {
            writer.add(transactionObserver: CommitObserver(tenant: tenantID, listener: commitListener), extent: .databaseLifetime)
        }
        writer.add(transactionObserver: PageCache.Invalidator(caches.pages), extent: .databaseLifetime)
        return TenantDatabase(tenantID: tenantID, writer: writer, liveSessions: caches.liveSessions, pages: caches.pages)
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

    /// Closes the database's connections (its tenant was deleted, or the server stops).
    package func close() {
        try? (writer as? DatabasePool)?.close()
        try? (writer as? DatabaseQueue)?.close()
    }

    /// Answers whether the database can be read.
    package func isReachable() async -> Bool {
        (try? await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }
}
