import EduGoGuarded
import Foundation

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
    /// Freshness and the bounds of the memory layer and of the persistent table.
    ///
    /// Both layers evict the least recently used answers first. An answer larger than
    /// `maxDiskBytes` on its own is kept in memory only.
    public struct Limits: Sendable, Equatable {
        /// How long a stored answer counts as fresh for ``CachePolicy/cacheFirst``; an older one is
        /// fetched again (revalidated with its `ETag`).
        public var timeToLive: Duration
        /// Answers kept in memory.
        public var maxEntries: Int
        /// Bytes of answers kept in memory.
        public var maxBytes: Int
        /// Answers kept in the store's `http_cache` table.
        public var maxDiskEntries: Int
        /// Bytes (bodies and headers) kept in the store's `http_cache` table.
        public var maxDiskBytes: Int

        /// Creates limits. The defaults keep answers fresh for 5 minutes, hold 100 answers or 10 MiB in
        /// memory, and 2,000 answers or 50 MiB in the store.
        public init(
            timeToLive: Duration = .seconds(300), maxEntries: Int = 100, maxBytes: Int = 10 * 1024 * 1024,
            maxDiskEntries: Int = 2_000, maxDiskBytes: Int = 50 * 1024 * 1024
        ) {
            self.timeToLive = timeToLive
            self.maxEntries = maxEntries
            self.maxBytes = maxBytes
            self.maxDiskEntries = maxDiskEntries
            self.maxDiskBytes = maxDiskBytes
        }
    }

    /// Where an answer came from.
    public enum Source: String, Sendable, Equatable {
        /// The memory layer, the store's `http_cache` table, or a new answer from the server.
        case memory, disk, network
        /// The server answered 304 Not Modified: the cached body is current again.
        case revalidated
    }

    /// A cached or fresh answer.
    public struct Entry: Sendable {
        /// The answer: status, header fields and body.
        public var response: APIResponse
        /// When the answer was fetched or last revalidated; freshness is measured from it.
        public var storedAt: Date
        /// Where the answer came from, for example to show that data may be old.
        public var source: Source
    }

    let client: APIClient
    let store: OfflineStore
    let limits: Limits
    let now: @Sendable () -> Date
    private let memory: Guarded<MemoryLRU<StoredResponse>>
    private let keyPrefix: String

    /// Creates a cache for the user of `store`.
    ///
    /// - Parameters:
    ///   - client: Sends the requests. Answers are only fetched with the token of `store`'s user.
    ///   - store: The user's offline store; its `http_cache` table is the persistent layer.
    ///   - limits: Freshness and size bounds.
    ///   - now: The clock for freshness and eviction; tests pass a fixed one.
    public init(client: APIClient, store: OfflineStore, limits: Limits = Limits(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.store = store
        self.limits = limits
        self.now = now
        self.memory = Guarded(MemoryLRU(maxEntries: limits.maxEntries, maxBytes: limits.maxBytes))
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
        let keys = keyPrefixes(afterMutationOf: path)
        forgetInMemory(keyPrefixes: keys)
        try? await store.removeResponses(withKeyPrefixes: keys)
    }

    /// The cache keys a mutation of `path` makes stale, as prefixes (the outbox drops them from
    /// the store in the transaction that settles the mutation).
    func keyPrefixes(afterMutationOf path: String) -> [String] {
        let segments = path.split(separator: "/").map(String.init)
        var prefixes = ["/" + segments.prefix(2).joined(separator: "/")]
        if segments.count >= 2, segments[1] == "courses" { prefixes.append("/v1/users/me/courses") }
        if segments.count >= 2, segments[1] == "users" { prefixes.append("/v1/auth/me") }
        return prefixes.map { keyPrefix + $0 }
    }

    /// Drops the memory layer's answers under `keyPrefixes`.
    func forgetInMemory(keyPrefixes keys: [String]) {
        memory.withLock { lru in lru.removeAll { key in keys.contains { key.hasPrefix($0) } } }
    }

    // MARK: Internals

    /// The tenant, the user, the path and the whole query, its items sorted (the same query in
    /// another order is the same answer).
    func cacheKey(_ endpoint: Endpoint) -> String {
        let query = endpoint.query
            .map { item in (name: Self.escaped(item.name), value: Self.escaped(item.value ?? "")) }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "&")
        return keyPrefix + endpoint.encodedPath + (query.isEmpty ? "" : "?" + query)
    }

    /// A query name or value with `&`, `=`, `%` and `+` percent-encoded, so a value that
    /// contains them cannot collide with another query.
    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: Self.queryText) ?? text
    }

    private static let queryText = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=%+"))

    private func isFresh(_ entry: Entry) -> Bool {
        now().timeIntervalSince(entry.storedAt) < Double(limits.timeToLive.components.seconds)
    }

    func cached(_ key: String) async throws -> Entry? {
        if let stored = memory.withLock({ $0.get(key) }) {
            return Entry(response: stored.response, storedAt: stored.storedAt, source: .memory)
        }
        guard let stored = try await store.cachedResponse(key, now: now()) else { return nil }
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
        try await store.storeResponse(
            stored, key: key, bounds: DiskCacheBounds(maxEntries: limits.maxDiskEntries, maxBytes: limits.maxDiskBytes), now: now())
    }
}
