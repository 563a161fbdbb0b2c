import EduGoServerStore
import Foundation
import Logging

/// Knows which tenants exist and hands out each tenant's database, opening it on demand.
///
/// The registry itself is a small database (`registry.sqlite`) listing tenants; tenant data
/// lives in `tenants/<id>.sqlite`. At most `maxOpenTenants` tenant databases stay open: past
/// that, the least recently used one is dropped from the cache and reopened on its next use, so
/// the number of tenants never decides the number of file descriptors. In-memory tenants are
/// never dropped (they would be lost).
///
/// A request or a stream that holds a tenant's database holds a lease on its connections: the
/// registry never closes a database (see ``TenantDatabase/lease``). A dropped database closes
/// when its last holder lets go, and until then every request for its tenant gets that same
/// database, so one file never has two pools (two writers serialised only by SQLite's lock).
actor TenantRegistry {
    private let registry: RegistryStore
    private let tenantsDirectory: URL?
    /// The databases kept open, at most `maxOpenTenants` file-backed ones.
    private var open: [TenantID: TenantDatabase] = [:]
    /// Every tenant database opened and not deleted, held weakly: a database dropped from `open`
    /// is handed out again for as long as a request or a stream still holds it.
    private var leases: [TenantID: TenantDatabase.Lease] = [:]
    private var lastUse: [TenantID: UInt64] = [:]
    private var useCounter: UInt64 = 0
    /// One set of caches per tenant id (live sessions, list pages), kept while its database is
    /// closed and reopened: a pool still held by a request after its tenant was dropped from
    /// `open` writes through the same caches as the reopened one, so an invalidation through
    /// either reaches both.
    private var tenantCaches: [TenantID: TenantCaches] = [:]
    /// Each tenant's list pages, the `changeDependent` of its caches.
    private var tenantPages: [TenantID: PageCache] = [:]
    private let maxOpenTenants: Int
    /// The most list pages each tenant's page cache keeps.
    private let pageCacheCapacity: Int
    private let now: @Sendable () -> Date
    /// Told the duration of every tenant-database transaction (metrics); `nil` when metrics are off.
    private let transactionObserver: (@Sendable (Duration) -> Void)?
    /// Told of every commit of every tenant, and of a tenant's deletion (live event streams).
    private let changeHub: ChangeHub?
    /// The saved snapshots, removed with their tenant.
    private let snapshots: TenantSnapshots?
    /// What a new file-backed tenant's database starts as, made when the first one is created.
    private var template: TenantTemplate?

    init(
        storage: ServerConfiguration.Storage, maxOpenTenants: Int = 32,
        pageCacheCapacity: Int = PageCache.defaultCapacity, now: @escaping @Sendable () -> Date,
        transactionObserver: (@Sendable (Duration) -> Void)? = nil, changeHub: ChangeHub? = nil,
        snapshots: TenantSnapshots? = nil
    ) throws {
        self.now = now
        self.pageCacheCapacity = max(0, pageCacheCapacity)
        self.changeHub = changeHub
        self.snapshots = snapshots
        self.maxOpenTenants = max(1, maxOpenTenants)
        self.transactionObserver = transactionObserver
        switch storage {
        case .directory(let root):
            let tenants = root.appendingPathComponent("tenants", isDirectory: true)
            try FileManager.default.createDirectory(
                at: tenants, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            self.tenantsDirectory = tenants
        case .inMemory:
            self.tenantsDirectory = nil
        }
        self.registry = try RegistryStore(dataDirectory: storage.dataDirectory)
    }

    /// What the metrics report at scrape time.
    struct State: Sendable {
        var openDatabases: Int
        var activeSessions: Int
    }

    /// How many tenant databases are open and how many unrevoked sessions they hold.
    func state() async -> State {
        let databases = Array(open.values)
        var sessions = 0
        for database in databases {
            sessions += (try? await TenantStore(database).liveSessionCount()) ?? 0
        }
        return State(openDatabases: databases.count, activeSessions: sessions)
    }

    /// The ids of all tenants, oldest first.
    func tenantIDs() async throws -> [TenantID] {
        try await registry.tenantIDs()
    }

    typealias Listing = RegistryStore.Listing

    /// A page of tenants, newest first (in creation order when created at the same instant), and how
    /// many there are in all.
    func tenantPage(offset: Int, limit: Int) async throws -> (items: [Listing], total: Int) {
        try await registry.tenantPage(offset: offset, limit: limit)
    }

    /// The store of an existing tenant.
    ///
    /// - Throws: `404 tenant_not_found` when no such tenant exists.
    func store(for id: TenantID) async throws -> TenantStore {
        TenantStore(try await database(for: id))
    }

    /// The database of an existing tenant.
    ///
    /// - Throws: `404 tenant_not_found` when no such tenant exists.
    func database(for id: TenantID) async throws -> TenantDatabase {
        if let database = alreadyOpen(id) { return database }
        guard try await registry.contains(id) else { throw APIError.tenantNotFound }
        // Checked again after the suspension: another request may have opened it meanwhile.
        if let database = alreadyOpen(id) { return database }
        let database = try TenantDatabase.open(
            tenantID: id, at: fileURL(for: id), transactionObserver: transactionObserver, now: now,
            caches: caches(for: id), commitListener: changeHub)
        leases[id] = database.lease
        keep(database)
        return database
    }

    /// The tenant's database when it is open: kept, or dropped but still held by a request or a
    /// stream (then kept again, as a reopened one would be).
    private func alreadyOpen(_ id: TenantID) -> TenantDatabase? {
        if let database = open[id] {
            touch(id)
            return database
        }
        guard let database = leases[id]?.database else {
            leases[id] = nil
            return nil
        }
        keep(database)
        return database
    }

    /// How many tenant databases have open connections: kept, or dropped but still held.
    var liveCount: Int {
        leases.values.count { $0.database != nil }
    }

    /// The tenant's one set of caches, made on first use.
    private func caches(for id: TenantID) -> TenantCaches {
        if let caches = tenantCaches[id] { return caches }
        return newCaches(for: id).caches
    }

    /// New caches for `id`, with new list pages, replacing any it had.
    private func newCaches(for id: TenantID) -> (caches: TenantCaches, pages: PageCache) {
        let pages = PageCache(capacity: pageCacheCapacity)
        let caches = TenantCaches(changeDependent: pages)
        tenantCaches[id] = caches
        tenantPages[id] = pages
        return (caches, pages)
    }

    /// The tenant's encoded list pages, emptied by its store's commits that log a change.
    func pages(for id: TenantID) -> PageCache {
        tenantPages[id] ?? newCaches(for: id).pages
    }

    /// How many tenant databases are open (cached) now.
    var openCount: Int { open.count }

    private func touch(_ id: TenantID) {
        useCounter += 1
        lastUse[id] = useCounter
    }

    /// Caches `database`, dropping the least recently used file-backed ones beyond the cap.
    private func keep(_ database: TenantDatabase) {
        open[database.tenantID] = database
        touch(database.tenantID)
        guard tenantsDirectory != nil, open.count > maxOpenTenants else { return }
        let victims = lastUse.sorted { $0.value < $1.value }.prefix(open.count - maxOpenTenants).map(\.key)
        for id in victims {
            // Not closed: a request or a stream may still hold it (its lease hands it out again
            // meanwhile). Its connections close when the last holder lets go.
            open[id] = nil
            lastUse[id] = nil
        }
    }

    /// Creates a tenant with an empty database and runs `seed` on it in the same step.
    ///
    /// A file-backed tenant's database starts as a copy of the ``TenantTemplate``, already
    /// migrated. The registry row is written last, so a tenant is never visible before its seed committed.
    func createTenant(
        _ id: TenantID, name: String, seed: @Sendable (TenantStore) async throws -> Void
    ) async throws -> TenantStore {
        // A file without a registry row is what a crash between seeding and registering leaves:
        // start it over rather than seed on top of it.
        if let url = fileURL(for: id) {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            let template = try self.template ?? TenantTemplate()
            self.template = template
            try template.install(at: url)
        }
        // A new tenant starts with new caches: nothing of a deleted namesake carries over.
        let caches = newCaches(for: id).caches
        let database = try TenantDatabase.open(
            tenantID: id, at: fileURL(for: id), transactionObserver: transactionObserver, now: now, caches: caches,
            commitListener: changeHub)
        try await seed(TenantStore(database))
        let created = now()
        try await registry.insert(id, name: name, createdAt: created)
        leases[id] = database.lease
        keep(database)
        return TenantStore(database)
    }

    /// Deletes a tenant: its registry row, then its database files and its snapshots.
    /// - Returns: Whether the tenant existed.
    func deleteTenant(_ id: TenantID) async throws -> Bool {
        let deleted = try await registry.delete(id)
        lastUse[id] = nil
        if let caches = tenantCaches.removeValue(forKey: id) {
            caches.liveSessions.invalidate()
            caches.changeDependent?.invalidate()
        }
        tenantPages[id] = nil
        // Not closed: a request still running holds it and finishes on it. Nothing hands it out again.
        open[id] = nil
        leases[id] = nil
        changeHub?.tenantDeleted(id)
        if let url = fileURL(for: id) {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
        await snapshots?.removeAll(of: id)
        return deleted
    }

    /// Whether the registry database answers.
    func isReachable() async -> Bool {
        await registry.isReachable()
    }

    /// Lets go of every file-backed tenant database (graceful shutdown): each closes its
    /// connections once the requests still running on it finish. In-memory tenants stay (their
    /// data would be lost to a request still running); they go with the registry.
    func close() {
        guard tenantsDirectory != nil else { return }
        open.removeAll()
        lastUse.removeAll()
    }

    private func fileURL(for id: TenantID) -> URL? {
        tenantsDirectory?.appendingPathComponent("\(id.rawValue).sqlite")
    }
}
