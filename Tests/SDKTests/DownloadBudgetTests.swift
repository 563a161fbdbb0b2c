import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``DownloadBudget``: which cached files go when the downloads exceed their byte budget.
@Suite(.timeLimit(.minutes(1))) struct DownloadBudgetTests {
    func item(_ id: String, _ size: Int64, pinned: Bool = false, at seconds: TimeInterval) -> DownloadBudget.Item {
        DownloadBudget.Item(lessonID: id, size: size, pinned: pinned, lastUsed: Date(timeIntervalSince1970: seconds))
    }

    @Test("within the budget nothing is evicted")
    func withinBudget() {
        #expect(DownloadBudget.evictions([item("a", 10, at: 1), item("b", 10, at: 2)], budget: 20, keeping: nil) == [])
    }

    @Test("cached files go least recently used first, only as many as needed")
    func leastRecentlyUsedFirst() {
        let items = [item("new", 10, at: 3), item("old", 10, at: 1), item("mid", 10, at: 2)]
        #expect(DownloadBudget.evictions(items, budget: 20, keeping: nil) == ["old"])
        #expect(DownloadBudget.evictions(items, budget: 10, keeping: nil) == ["old", "mid"])
    }

    @Test("pinned files and the file being kept are never evicted, even when the budget stays exceeded")
    func pinnedAndKeptStay() {
        let items = [item("pinned", 50, pinned: true, at: 0), item("kept", 10, at: 1), item("cached", 10, at: 2)]
        #expect(DownloadBudget.evictions(items, budget: 5, keeping: "kept") == ["cached"])
    }

    @Test("Content-Range is read only when well-formed")
    func contentRange() {
        #expect(ContentRange("bytes 100-199/4096") == ContentRange("bytes 100-199/4096"))
        #expect(ContentRange("bytes 100-199/4096")?.first == 100)
        #expect(ContentRange("bytes 100-199/4096")?.size == 4096)
        #expect(ContentRange("bytes */4096") == nil)
        #expect(ContentRange("bytes 200-100/4096") == nil)
        #expect(ContentRange("bytes 0-4096/4096") == nil)
        #expect(ContentRange(nil) == nil)
    }
}
