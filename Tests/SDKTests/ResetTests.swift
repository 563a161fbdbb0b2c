import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Resets: a pull answered `410 cursor_expired` with `reason: timeline_changed` (the server's data
/// was replaced by a restore or an import) replaces the cache in one step, tells only what changed,
/// and starts over when the data is replaced again while it pages.
@Suite(.timeLimit(.minutes(1))) struct ResetTests {
    static let timelineChanged = StubOutcome.response(
        .problem(410, code: "cursor_expired", extra: ["reason": "timeline_changed"]))

    @Test("a restore while a base sync pages: the base sync starts over and ends on the new timeline's state")
    func restoreDuringBaseSyncPaging() async throws {
        // Given a device at cursor c0 holding course a
        let harness = try await PullTests.harnessAtFirstCursor()
        harness.routes.on(
            .get, "/v1/sync/changes",
            // When its pull resets, and the data is replaced again between two base pages
            Self.timelineChanged,
            PullTests.page([PullTests.upsert("course", "x", course: "x", PullTests.course("x"))], cursor: "b1", hasMore: true, baseContinues: true),
            Self.timelineChanged,
            PullTests.page([PullTests.upsert("course", "y", course: "y", PullTests.course("y"))], cursor: "b2", hasMore: true, baseContinues: true),
            PullTests.page([PullTests.upsert("course", "z", course: "z", PullTests.course("z"))], cursor: "d1"))

        let result = await harness.engine.pull()

        // Then the pull ends on the newest timeline's state alone, as a reset
        #expect(result.error == nil)
        #expect(result.reset?.reason == .timelineChanged)
        #expect(try await harness.courses.list().value.map(\.id).sorted() == ["y", "z"])
        #expect(try await harness.store.syncCursor() == "d1")
        #expect(PullTests.cursors(harness) == [nil, "c0", nil, "b1", nil, "b2"])
    }

    @Test("a reset tells remoteChanges only the entities whose state it changed: new, changed and removed, not the same")
    func resetAnnouncesOnlyDifferences() async throws {
        // Given a device holding courses a, b and c
        let harness = try await OfflineHarness()
        harness.routes.on(
            .get, "/v1/sync/changes",
            PullTests.page(
                ["a", "b", "c"].map { PullTests.upsert("course", $0, course: $0, PullTests.course($0)) }, cursor: "c0"))
        #expect(await harness.engine.pull().error == nil)
        let changes = harness.engine.remoteChanges()

        // When a reset's base sync holds a unchanged, b renamed, c gone and d new
        harness.routes.on(
            .get, "/v1/sync/changes",
            Self.timelineChanged,
            PullTests.page([
                PullTests.upsert("course", "a", course: "a", PullTests.course("a")),
                PullTests.upsert("course", "b", course: "b", PullTests.course("b", title: "Otro")),
                PullTests.upsert("course", "d", course: "d", PullTests.course("d")),
            ], cursor: "d1"))
        let result = await harness.engine.pull()

        // Then one element tells b, d and c's removal, and nothing of a
        #expect(result.reset?.resynced == 3)
        var iterator = changes.makeAsyncIterator()
        let told = try #require(await iterator.next())
        #expect(Set(told.map { "\($0.operation.rawValue) \($0.id)" }) == ["upsert b", "upsert d", "delete c"])
    }

    @Test("a reset marks every complete download for a check of its media, in its transaction; a partial one resumes with If-Range anyway")
    func resetMarksDownloadsForACheck() async throws {
        // Given a device at cursor c0 with one complete and one partial download
        let harness = try await PullTests.harnessAtFirstCursor()
        let sha = String(repeating: "cd", count: 32)
        func record(_ lessonID: String, complete: Bool) -> DownloadRecord {
            DownloadRecord(
                lessonID: lessonID, courseID: "a", pinned: true, etag: "\"\(sha)\"", size: 5, contentType: "application/pdf",
                complete: complete, lastUsed: Date(timeIntervalSince1970: 1_800_000_000))
        }
        try await harness.store.saveDownloadRecord(record("done", complete: true))
        try await harness.store.saveDownloadRecord(record("half", complete: false))

        // When a pull resets
        harness.routes.on(
            .get, "/v1/sync/changes",
            Self.timelineChanged,
            PullTests.page([PullTests.upsert("course", "a", course: "a", PullTests.course("a"))], cursor: "d1"))
        #expect(await harness.engine.pull().reset?.reason == .timelineChanged)

        // Then the complete file awaits a check, and the partial one is as it was
        #expect(try await harness.store.downloadRecord("done")?.needsCheck == true)
        #expect(try await harness.store.downloadRecord("half")?.needsCheck == false)
    }

    @Test("the check of a marked file: 304 or the same ETag is current, another ETag or 404 is changed, anything else unknown")
    func mediaCheckDecisions() {
        let tag = "\"\(String(repeating: "ab", count: 32))\""
        let other = "\"\(String(repeating: "ef", count: 32))\""
        #expect(MediaCheck.decide(status: 304, etag: tag, recorded: tag) == .current)
        #expect(MediaCheck.decide(status: 200, etag: tag, recorded: tag) == .current)
        #expect(MediaCheck.decide(status: 200, etag: other, recorded: tag) == .changed)
        #expect(MediaCheck.decide(status: 200, etag: nil, recorded: tag) == .changed)
        #expect(MediaCheck.decide(status: 404, etag: nil, recorded: tag) == .changed)
        #expect(MediaCheck.decide(status: 503, etag: nil, recorded: tag) == .unknown)
        #expect(MediaCheck.decide(status: 0, etag: nil, recorded: tag) == .unknown)
    }
}
