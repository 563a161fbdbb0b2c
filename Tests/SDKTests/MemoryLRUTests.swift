import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The memory layer of the response cache: bounded by entries and bytes, evicting the least
/// recently used.
@Suite(.timeLimit(.minutes(2))) struct MemoryLRUTests {
    @Test("beyond the entry limit the least recently stored entry is evicted")
    func evictsByEntryCount() {
        var lru = MemoryLRU<String>(maxEntries: 2, maxBytes: 1_000)

        lru.set("a", "A", bytes: 1)
        lru.set("b", "B", bytes: 1)
        lru.set("c", "C", bytes: 1)

        #expect(lru.count == 2)
        #expect(lru.get("a") == nil)
        #expect(lru.get("b") == "B")
        #expect(lru.get("c") == "C")
    }

    @Test("beyond the byte limit the oldest entries are evicted until the total fits")
    func evictsByBytes() {
        var lru = MemoryLRU<String>(maxEntries: 10, maxBytes: 10)
        lru.set("a", "A", bytes: 4)
        lru.set("b", "B", bytes: 4)

        // 4 + 4 + 7 = 15: evicting the oldest leaves 11, still too many; evicting the next leaves 7.
        lru.set("c", "C", bytes: 7)

        #expect(lru.get("a") == nil)
        #expect(lru.get("b") == nil)
        #expect(lru.get("c") == "C")
        #expect(lru.totalBytes == 7)
    }

    @Test("only as many of the oldest entries are evicted as needed to fit the bytes")
    func evictsOnlyWhatIsNeeded() {
        var lru = MemoryLRU<String>(maxEntries: 10, maxBytes: 10)
        lru.set("a", "A", bytes: 4)
        lru.set("b", "B", bytes: 4)

        lru.set("c", "C", bytes: 6)

        #expect(lru.get("a") == nil)
        #expect(lru.get("b") == "B")
        #expect(lru.totalBytes == 10)
    }

    @Test("reading an entry makes it the most recently used, so it outlives older reads")
    func recencyProtectsReadEntries() {
        var lru = MemoryLRU<String>(maxEntries: 2, maxBytes: 1_000)
        lru.set("a", "A", bytes: 1)
        lru.set("b", "B", bytes: 1)

        _ = lru.get("a")
        lru.set("c", "C", bytes: 1)

        #expect(lru.get("a") == "A")
        #expect(lru.get("b") == nil)
        #expect(lru.get("c") == "C")
    }

    @Test("storing a key again replaces its value and its size, and makes it most recent")
    func replacingUpdatesSize() {
        var lru = MemoryLRU<String>(maxEntries: 2, maxBytes: 100)
        lru.set("a", "A1", bytes: 10)
        lru.set("b", "B", bytes: 10)

        lru.set("a", "A2", bytes: 30)
        lru.set("c", "C", bytes: 10)

        #expect(lru.count == 2)
        #expect(lru.totalBytes == 40)
        #expect(lru.get("a") == "A2")
        #expect(lru.get("b") == nil)
    }

    @Test("a value larger than the byte limit is not kept, and evicts nothing")
    func oversizedValueIsSkipped() {
        var lru = MemoryLRU<String>(maxEntries: 10, maxBytes: 10)
        lru.set("a", "A", bytes: 5)

        lru.set("huge", "H", bytes: 11)

        #expect(lru.get("huge") == nil)
        #expect(lru.get("a") == "A")
        #expect(lru.totalBytes == 5)
    }

    @Test("removing by predicate forgets exactly the matching keys and their bytes")
    func removeWhere() {
        var lru = MemoryLRU<String>(maxEntries: 10, maxBytes: 100)
        lru.set("/v1/courses", "list", bytes: 3)
        lru.set("/v1/courses/1", "one", bytes: 3)
        lru.set("/v1/users/me", "me", bytes: 3)

        lru.removeAll { $0.hasPrefix("/v1/courses") }

        #expect(lru.count == 1)
        #expect(lru.totalBytes == 3)
        #expect(lru.get("/v1/users/me") == "me")
    }
}
