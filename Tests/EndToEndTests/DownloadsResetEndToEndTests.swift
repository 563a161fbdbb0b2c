import EduGoSDK
import EduGoTesting
import Foundation
import Testing

/// A downloaded lesson file whose media a restore changed is never served as current: the reset
/// marks every downloaded file, and its next use asks the server for the media's `ETag` first.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DownloadsResetEndToEndTests {
    @Test("after a restore, a file whose media changed is not served (it is downloaded again); an unchanged one is, once the server confirms it")
    func restoreChangesDownloadedMedia() async throws {
        let kept = generatedPDF(256 << 10, seed: 41)
        let undone = generatedPDF(300 << 10, seed: 42)
        let replacement = generatedPDF(200 << 10, seed: 43)
        try await DownloadsEndToEndTests().withMedia(files: [kept]) { server, client, session, author, course, lessons in
            // Given a snapshot taken while the second lesson had no media
            let first = try #require(lessons.first)
            let (_, all) = try await author.lessons(ofCourseTitled: DownloadsEndToEndTests.swiftCourse)
            let second = try #require(all.first { $0.id != first })
            #expect(await session.engine.syncNow().pullError == nil)
            let snapshot = try await server.snapshot(tenantID: "demo")

            // And a device that downloaded both lessons' files after the second got media
            try await author.upload(undone, course: course, lesson: second.id, version: second.version)
            let downloads = try client.downloads(for: session)
            try await downloads.fetch(lessonID: first, courseID: course)
            try await downloads.fetch(lessonID: second.id, courseID: course)
            #expect(await session.engine.syncNow().pullError == nil)

            // When the snapshot is restored (the second lesson's media undone), another file is
            // uploaded to it, and the device's next sync is a reset
            try await server.restore(snapshot)
            let (_, restored) = try await author.lessons(ofCourseTitled: DownloadsEndToEndTests.swiftCourse)
            let version = try #require(restored.first { $0.id == second.id }?.version)
            try await author.upload(replacement, course: course, lesson: second.id, version: version)
            #expect(await session.engine.syncNow().reset?.reason == .timelineChanged)

            // Then both files await a check, and the one whose media changed is not served as current
            #expect(await downloads.files().map(\.awaitingCheck) == [true, true])
            #expect(await downloads.localFile(for: second.id) == nil)
            // And the unchanged one is served once the server confirmed it
            let confirmed = try #require(await downloads.localFile(for: first))
            #expect(sameBytes(try Data(contentsOf: confirmed), kept))
            // And fetching the changed lesson downloads the server's current media
            let fetched = try await downloads.fetch(lessonID: second.id, courseID: course)
            #expect(sameBytes(try Data(contentsOf: fetched), replacement))
            #expect(await downloads.files().map(\.awaitingCheck) == [false, false])
        }
    }

    @Test("after a restore, verify(lessonID:) of a file whose media changed throws changedOnServer and removes it")
    func verifyReportsChangedMedia() async throws {
        let original = generatedPDF(128 << 10, seed: 44)
        let newer = generatedPDF(160 << 10, seed: 45)
        try await DownloadsEndToEndTests().withMedia(files: [original]) { server, client, session, author, course, lessons in
            // Given a snapshot of a lesson with media, then newer media the device downloaded
            let lesson = try #require(lessons.first)
            #expect(await session.engine.syncNow().pullError == nil)
            let snapshot = try await server.snapshot(tenantID: "demo")
            let (_, current) = try await author.lessons(ofCourseTitled: DownloadsEndToEndTests.swiftCourse)
            let version = try #require(current.first { $0.id == lesson }?.version)
            try await author.upload(newer, course: course, lesson: lesson, version: version)
            let downloads = try client.downloads(for: session)
            try await downloads.fetch(lessonID: lesson, courseID: course)

            // When the restore puts the older media back and the device resets
            try await server.restore(snapshot)
            #expect(await session.engine.syncNow().reset?.reason == .timelineChanged)

            // Then verifying the file reports it stale, and it is gone
            await #expect(throws: DownloadError.changedOnServer(lessonID: lesson)) {
                try await downloads.verify(lessonID: lesson)
            }
            #expect(await downloads.files().isEmpty)
            #expect(await downloads.localFile(for: lesson) == nil)
            // (A snapshot keeps the lesson's media row, not its file, which the newer upload
            // deleted: the server answers the restored lesson's media with 404.)
            await #expect(throws: DownloadError.refused(status: 404, code: nil)) {
                try await downloads.fetch(lessonID: lesson, courseID: course)
            }
        }
    }
}
