import Foundation
import GRDB
import Synchronization

/// Where a read may come from.
public enum CachePolicy: Sendable, Equatable {
    /// A fresh cached answer if there is one, else the network.
    case cacheFirst
    /// The network (revalidating with `If-None-Match`); a cached answer of any age when offline.
    case networkFirst
    /// The cached answer at once, then the network's (stale-while-revalidate); see ``ResponseCache/stream(_:)``.
    case cacheThenNetwork
    /// Always the network; the answer is still stored.
    case networkOnly
}

/// HTTP responses of GET requests, kept in a memory LRU over the persistent `http_cache`
/// table, revalidated with their `ETag`. Keys include the tenant and the user.
public final class ResponseCache: Sendable {
    /// Bounds of the memory layer.
    public struct Limits: Sendable, Equatable {
        public var timeToLive: Duration
        public var maxEntries: Int
        public var maxBytes: Int

        public init(timeToLive: Duration = .seconds(300), maxEntries: Int = 100, maxBytes: Int = 10 * 1024 * 1024) {
            self.timeToLive = timeToLive
            self.maxEntries = maxEntries
            self.maxBytes = maxBytes
        }
    }

    /// Where an answer came from.
    public enum Source: String, Sendable, Equatable {
        case memory, disk, network
        /// The server answered 304 Not Modified: the cached body is current again.
        case revalidated
    }

    /// A cached or fresh answer.
    public struct Entry: Sendable {
        public var response: APIResponse
        public var storedAt: Date
        public var source: Source
    }

    let client: APIClient
    let store: OfflineStore
    let limits: Limits
    let now: @Sendable () -> Date
    private let memory: Mutex<MemoryLRU<StoredResponse>>
    private let keyPrefix: String

    public init(client: APIClient, store: OfflineStore, limits: Limits = Limits(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.store = store
        self.limits = limits
        self.now = now
        self.memory = Mutex(MemoryLRU(maxEntries: limits.maxEntries, maxBytes: limits.maxBytes))
        self.keyPrefix = "\(store.tenantID)|\(store.userID)|"
    }

    /// Answers a GET according to `policy`.
    ///
    /// - Throws: ``NetworkError`` when the network was needed and failed and nothing is cached,
    ///   or the server answered with an error.
    public func fetch(_ endpoint: Endpoint, policy: CachePolicy) async throws -> Entry {
        let key = cacheKey(endpoint)
        switch policy {
        case .cacheFirst:
            if let entry = try await cached(key), isFresh(entry) { return entry }
            return try await network(endpoint, key: key)
        case .networkFirst, .cacheThenNetwork:
            do {
                return try await network(endpoint, key: key)
            } catch let error as NetworkError where error == .noConnection || error == .timeout {
                if let entry = try await cached(key) { return entry }
                throw error
            }
        case .networkOnly:
            return try await network(endpoint, key: key)
        }
    }

    /// Stale-while-revalidate: the cached answer (if any) at once, then the network's.
    public func stream(_ endpoint: Endpoint) -> AsyncThrowingStream<Entry, any Error> {
        let key = cacheKey(endpoint)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if let entry = try await self.cached(key) { continuation.yield(entry) }
                    continuation.yield(try await self.network(endpoint, key: key))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Decodes the body of ``fetch(_:policy:)``.
    public func fetchJSON<T: Decodable & Sendable>(_ endpoint: Endpoint, policy: CachePolicy, as type: T.Type = T.self) async throws -> T {
        try Self.decode(try await fetch(endpoint, policy: policy))
    }

    /// Forgets every answer under the collection a mutation of `path` touched (for
    /// `/v1/courses/…` that is every course, lesson, progress and enrolled-courses answer).
    public func invalidate(afterMutationOf path: String) async {
        let segments = path.split(separator: "/").map(String.init)
        var prefixes = ["/" + segments.prefix(2).joined(separator: "/")]
        if segments.count >= 2, segments[1] == "courses" { prefixes.append("/v1/users/me/courses") }
        if segments.count >= 2, segments[1] == "users" { prefixes.append("/v1/auth/me") }
        let keys = prefixes.map { keyPrefix + $0 }
        memory.withLock { lru in lru.removeAll { key in keys.contains { key.hasPrefix($0) } } }
        // Most mutations touch nothing cached: look first (a concurrent read), write only if needed.
        let patterns = keys.map(Self.like)
        let cached = (try? await store.writer.read { db in
            try patterns.contains { pattern in
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM http_cache WHERE key LIKE ? ESCAPE '\\')", arguments: [pattern]) == true
            }
        }) ?? true
        guard cached else { return }
        try? await store.writer.write { db in
            for pattern in patterns {
                try db.execute(sql: "DELETE FROM http_cache WHERE key LIKE ? ESCAPE '\\'", arguments: [pattern])
            }
        }
    }

    // MARK: Internals

    func cacheKey(_ endpoint: Endpoint) -> String {
        let query = endpoint.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return keyPrefix + endpoint.encodedPath + (query.isEmpty ? "" : "?" + query)
    }

    private func isFresh(_ entry: Entry) -> Bool {
        now().timeIntervalSince(entry.storedAt) < Double(limits.timeToLive.components.seconds)
    }

    func cached(_ key: String) async throws -> Entry? {
        if let stored = memory.withLock({ $0.get(key) }) {
            return Entry(response: stored.response, storedAt: stored.storedAt, source: .memory)
        }
        guard let stored = try await store.writer.read({ db in try StoredResponse.fetch(db, key: key) }) else { return nil }
        memory.withLock { $0.set(key, stored, bytes: stored.response.body.count) }
        return Entry(response: stored.response, storedAt: stored.storedAt, source: .disk)
    }

    /// Asks the server (revalidating the cached answer) within `limits`, stores and decodes the
    /// answer: what a refresh for a read uses.
    func refreshJSON<T: Decodable & Sendable>(_ endpoint: Endpoint, limits: CallLimits, as type: T.Type = T.self) async throws -> T {
        try Self.decode(try await network(endpoint, key: cacheKey(endpoint), limits: limits))
    }

    private static func decode<T: Decodable>(_ entry: Entry) throws -> T {
        do {
            return try JSONCoding.decoder.decode(T.self, from: entry.response.body)
        } catch {
            throw NetworkError.decodingError(String(describing: error))
        }
    }

    private func network(_ endpoint: Endpoint, key: String, limits: CallLimits? = nil) async throws -> Entry {
        let previous = try await cached(key)
        var headers: [String: String] = [:]
        if let etag = previous?.response.etag { headers["If-None-Match"] = etag }
        // Answers go into this user's store: never fetch them with another user's token.
        let response = try await client.send(endpoint: endpoint, headers: headers, limits: limits, asUser: store.userID)
        let stamp = now()
        if response.statusCode == 304, let previous {
            let refreshed = StoredResponse(response: previous.response, storedAt: stamp)
            try await save(refreshed, key: key)
            return Entry(response: previous.response, storedAt: stamp, source: .revalidated)
        }
        guard response.isSuccess else { throw NetworkError.from(response: response, now: now()) }
        try await save(StoredResponse(response: response, storedAt: stamp), key: key)
        return Entry(response: response, storedAt: stamp, source: .network)
    }

    private func save(_ stored: StoredResponse, key: String) async throws {
        memory.withLock { $0.set(key, stored, bytes: stored.response.body.count) }
        try await store.writer.write { db in try stored.save(db, key: key) }
    }

    private static func like(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
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

    func save(_ db: Database, key: String) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO http_cache (key, status, headers, body, etag, stored_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [key, response.statusCode, try JSONEncoder().encode(response.headers), response.body, response.etag, storedAt])
    }
}
