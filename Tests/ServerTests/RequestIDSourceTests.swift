import Foundation
import Testing

@testable import EduGoServer

/// Request ids come from a counter scrambled by a bijection: never the same twice, each a UUIDv4.
@Suite(.timeLimit(.minutes(1))) struct RequestIDSourceTests {
    @Test("100,000 ids from two threads are distinct UUIDv4 strings, even under keys that differ in one bit")
    func idsAreDistinctUUIDs() async throws {
        let source = RequestIDSource(keys: (0, 1))
        async let first = (0..<50_000).map { _ in source.next() }
        async let second = (0..<50_000).map { _ in source.next() }
        let ids = await first + second
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(1_000) {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            #expect(Array(id)[14] == "4")
        }
    }
}
