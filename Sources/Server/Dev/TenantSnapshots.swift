import EduGoServerStore
import Foundation

/// The saved snapshots of every tenant (dev mode), at most `limit` per tenant.
///
/// With directory storage each snapshot is a file, `<data-dir>/snapshots/<tenant>/<id>.sqlite`,
/// and a tenant's folder is read on first use, so snapshots outlive a restart; with in-memory
/// storage each is an in-memory database this actor holds. A save reserves its slot before it
/// copies (the actor is reentrant across the copy's `await`), so concurrent saves never pass the
/// limit together.
actor TenantSnapshots {
    /// One saved snapshot.
    struct Snapshot: Sendable {
        var id: String
        var tenantID: TenantID
        var createdAt: Date
        var copy: SnapshotCopy
    }

    private let root: URL?
    private let limit: Int
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> String
    /// Each tenant's snapshots, oldest first.
    private var byTenant: [TenantID: [Snapshot]] = [:]
    /// Saves under way, each holding a slot.
    private var reserved: [TenantID: Int] = [:]

    /// - Parameters:
    ///   - storage: Directory storage keeps snapshots under `<root>/snapshots/`; in-memory keeps them here.
    ///   - limit: The most snapshots a tenant keeps.
    ///   - now: Dates each snapshot (the server's, possibly movable, clock).
    ///   - makeID: A new snapshot id: letters, digits and `-` only (it names a file).
    init(
        storage: ServerConfiguration.Storage, limit: Int, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> String = { "s-" + SecureToken.hash(SecureToken.generate()).prefix(16) }
    ) {
        switch storage {
        case .directory(let root): self.root = root.appendingPathComponent("snapshots", isDirectory: true)
        case .inMemory: self.root = nil
        }
        self.limit = max(1, limit)
        self.now = now
        self.makeID = makeID
    }

    /// Saves `store`'s whole database as a new snapshot.
    ///
    /// - Throws: `409 snapshot_limit` when the tenant holds `limit` snapshots (saves under way included).
    func save(_ store: TenantStore) async throws -> Snapshot {
        let tenant = store.tenantID
        let existing = snapshots(of: tenant).count + reserved[tenant, default: 0]
        guard existing < limit else { throw APIError.snapshotLimit(limit) }
        reserved[tenant, default: 0] += 1
        defer { reserved[tenant, default: 1] -= 1 }
        let id = makeID()
        var file: URL?
        if let root, let folder = folder(of: tenant) {
            // Each level made 0700 on its own: snapshots hold password and session hashes.
            for directory in [root, folder] {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            file = folder.appendingPathComponent("\(id).sqlite")
        }
        let createdAt = now()
        let copy = try await store.saveSnapshot(to: file)
        let snapshot = Snapshot(id: id, tenantID: tenant, createdAt: createdAt, copy: copy)
        byTenant[tenant, default: []].append(snapshot)
        return snapshot
    }

    /// The tenant's snapshots, newest first.
    func list(_ tenant: TenantID) -> [Snapshot] {
        snapshots(of: tenant).reversed()
    }

    /// The tenant's snapshot `id`, if it holds one.
    func snapshot(_ id: String, of tenant: TenantID) -> Snapshot? {
        snapshots(of: tenant).first { $0.id == id }
    }

    /// Removes the tenant's snapshot `id`; a restore already reading it finishes.
    /// - Returns: Whether it existed.
    func remove(_ id: String, of tenant: TenantID) -> Bool {
        var list = snapshots(of: tenant)
        guard let index = list.firstIndex(where: { $0.id == id }) else { return false }
        list.remove(at: index).copy.remove()
        byTenant[tenant] = list
        return true
    }

    /// Removes every snapshot of a deleted tenant, its folder included; a restore already reading
    /// one finishes. A tenant created later under the same id starts with none.
    func removeAll(of tenant: TenantID) {
        for snapshot in byTenant.removeValue(forKey: tenant) ?? [] { snapshot.copy.remove() }
        if let folder = folder(of: tenant) { try? FileManager.default.removeItem(at: folder) }
    }

    /// The tenant's snapshots, oldest first, read from its folder on first use.
    private func snapshots(of tenant: TenantID) -> [Snapshot] {
        if let known = byTenant[tenant] { return known }
        let found = folder(of: tenant).map { Self.read($0, tenant: tenant) } ?? []
        byTenant[tenant] = found
        return found
    }

    private func folder(of tenant: TenantID) -> URL? {
        root?.appendingPathComponent(tenant.rawValue, isDirectory: true)
    }

    /// The snapshot files in `folder` (a save's partial file starts with `.` and is skipped).
    private static func read(_ folder: URL, tenant: TenantID) -> [Snapshot] {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        let files = (try? FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return files.compactMap { file -> Snapshot? in
            guard file.pathExtension == "sqlite", let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return Snapshot(
                id: file.deletingPathExtension().lastPathComponent, tenantID: tenant,
                createdAt: values.contentModificationDate ?? .distantPast,
                copy: SnapshotCopy(location: .file(file), sizeBytes: values.fileSize ?? 0))
        }
        .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
}
