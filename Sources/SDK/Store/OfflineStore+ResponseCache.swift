import Foundation
import GRDB

/// How much of the persistent HTTP cache a store keeps.
struct DiskCacheBounds: Sendable, Equatable {
    var maxEntries: Int
    var maxBytes: Int
}

extension OfflineStore {
    /// The cached answer under `key`, marked used at `now` (so eviction spares it longest).
    func cachedResponse(_ key: String, now: Date) async throws -> StoredResponse? {
        try await writer.write { db in
            guard let stored = try StoredResponse.fetch(db, key: key) else { return nil }
            try db.execute(sql: "UPDATE http_cache SET used_at = ? WHERE key = ?", arguments: [now, key])
            return stored
        }
    }

    /// Keeps `stored` under `key`, then evicts the least recently used answers until the cache
    /// is within `bounds`, in one transaction. An answer larger than `bounds.maxBytes` on its
    /// own is not kept (and any older answer under its key is dropped).
    func storeResponse(_ stored: StoredResponse, key: String, bounds: DiskCacheBounds, now: Date) async throws {
        try await writer.write { db in
            let bytes = try stored.save(db, key: key, usedAt: now)
            if bytes > bounds.maxBytes {
                try db.execute(sql: "DELETE FROM http_cache WHERE key = ?", arguments: [key])
                return
            }
            try Self.evict(db, within: bounds, sparing: key)
        }
    }

    /// Drops answers whose key starts with one of `prefixes`, in one transaction.
    func removeResponses(withKeyPrefixes prefixes: [String]) async throws {
        try await writer.write { db in try Self.removeResponses(db, withKeyPrefixes: prefixes) }
    }

    /// How many answers and bytes the persistent cache holds.
    func responseCacheUsage() async throws -> (entries: Int, bytes: Int) {
        try await writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM http_cache")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    private static func evict(_ db: Database, within bounds: DiskCacheBounds, sparing key: String) throws {
        guard let totals = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM http_cache") else { return }
        var entries: Int = totals[0]
        var bytes: Int = totals[1]
        guard entries > bounds.maxEntries || bytes > bounds.maxBytes else { return }
        let oldest = try Row.fetchCursor(
            db, sql: "SELECT key, bytes FROM http_cache WHERE key != ? ORDER BY used_at, stored_at", arguments: [key])
        var victims: [String] = []
        while entries > bounds.maxEntries || bytes > bounds.maxBytes, let row = try oldest.next() {
            victims.append(row[0])
            entries -= 1
            bytes -= row[1] as Int
        }
        for victim in victims {
            try db.execute(sql: "DELETE FROM http_cache WHERE key = ?", arguments: [victim])
        }
    }

    /// Drops the answers under `prefixes` inside the caller's transaction, each prefix a range of
    /// the key's index (``PrefixRange``).
    static func removeResponses(_ db: Database, withKeyPrefixes prefixes: [String]) throws {
        for prefix in prefixes {
            let range = PrefixRange(column: "key", prefix: prefix)
            // Cached: every settled write drops the answers it made stale.
            try db.cachedStatement(sql: "DELETE FROM http_cache WHERE \(range.sql)").execute(arguments: range.arguments)
        }
    }
}

/// A response as kept in the `http_cache` table.
struct StoredResponse: Sendable {
    var response: APIResponse
    var storedAt: Date

    static func fetch(_ db: Database, key: String) throws -> StoredResponse? {
        guard let row = try Row.fetchOne(db, sql: "SELECT status, headers, body, stored_at FROM http_cache WHERE key = ?", arguments: [key]) else {
            return nil
        }
        let headerData: Data = row["headers"]
        let headers = (try? JSONDecoder().decode([String: String].self, from: headerData)) ?? [:]
        return StoredResponse(
            response: APIResponse(statusCode: row["status"], headers: headers, body: row["body"]), storedAt: row["stored_at"])
    }

    /// Writes the row; returns the bytes it counts (body and headers).
    func save(_ db: Database, key: String, usedAt: Date) throws -> Int {
        let headers = try JSONEncoder().encode(response.headers)
        let bytes = response.body.count + headers.count
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO http_cache (key, status, headers, body, etag, stored_at, bytes, used_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [key, response.statusCode, headers, response.body, response.etag, storedAt, bytes, usedAt])
        return bytes
    }
}
