import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A write drops the cached answers under its key prefixes: exactly those, found through the
/// key's index.
@Suite(.timeLimit(.minutes(1))) struct ResponseInvalidationTests {
    @Test("a prefix's successor bounds every text that starts with it")
    func successor() {
        #expect(PrefixRange.successor(ofPrefix: "t|u|/v1/courses") == "t|u|/v1/courset")
        #expect(PrefixRange.successor(ofPrefix: "a\u{D7FF}") == "a\u{E000}")
        #expect(PrefixRange.successor(ofPrefix: "a\u{10FFFF}") == "b")
        #expect(PrefixRange.successor(ofPrefix: "\u{10FFFF}") == nil)
        #expect(PrefixRange.successor(ofPrefix: "") == nil)
    }

    @Test("the answers whose key starts with the prefix are dropped; a key differing in case, or just past the prefix, stays")
    func dropsExactlyThePrefix() async throws {
        let store = try OfflineStore.inMemory(tenantID: "t", userID: "u")
        let prefix = "t|u|/v1/courses"
        let keys = [
            prefix, prefix + "/c-1", prefix + "/c-1/lessons?limit=20", prefix + "\u{10FFFF}",
            "t|u|/v1/Courses/c-1", "t|u|/v1/courset", "t|u|/v1/course", "t|u|/v1/users/me",
        ]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for key in keys {
            let stored = StoredResponse(response: APIResponse(statusCode: 200, headers: [:], body: Data("{}".utf8)), storedAt: now)
            try await store.storeResponse(stored, key: key, bounds: DiskCacheBounds(maxEntries: 100, maxBytes: 1 << 20), now: now)
        }

        try await store.removeResponses(withKeyPrefixes: [prefix])

        let left = try await store.writer.read { db in try String.fetchAll(db, sql: "SELECT key FROM http_cache ORDER BY key") }
        #expect(Set(left) == ["t|u|/v1/Courses/c-1", "t|u|/v1/courset", "t|u|/v1/course", "t|u|/v1/users/me"])
    }
}
