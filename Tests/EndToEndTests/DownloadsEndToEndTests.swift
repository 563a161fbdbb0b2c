import EduGoSDK
import EduGoTesting
import Foundation
import Synchronization
import Testing

/// The SDK's lesson downloads against a live server: resume, verify, budget.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DownloadsEndToEndTests {
    static let swiftCourse = "Programación con Swift"

    /// A seeded server with media on the first lessons of the Swift course (student1 is enrolled),
    /// and student1's offline session on a fresh directory.
    func withMedia(
        files: [Data], _ test: (EduGoTestServer, EduGoClient, OfflineSession, MediaAuthor, String, [String]) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let author = try await MediaAuthor.signIn(server.baseURL)
            let (course, lessons) = try await author.lessons(ofCourseTitled: Self.swiftCourse)
            #expect(lessons.count >= files.count)
            for (file, lesson) in zip(files, lessons) {
                try await author.upload(file, course: course, lesson: lesson.id, version: lesson.version)
            }
            let client = makeEduGoClient(server: server.baseURL, directory: root.appendingPathComponent("client"))
            let session = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
            do {
                try await test(server, client, session, author, course, lessons.prefix(files.count).map(\.id))
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
        }
    }

    @Test("a large file arrives in reads of more than 64 KiB, each one hop from the event loop to the download")
    func largeFileArrivesInLargeReads() async throws {
        let file = generatedPDF(16 << 20, seed: 29)
        try await withMedia(files: [file]) { _, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            let transport = ChunkRecordingTransport()
            let downloads = try client.downloads(for: session, transport: transport)

            let url = try await downloads.fetch(lessonID: lesson, courseID: course)

            #expect(sameBytes(try Data(contentsOf: url), file))
            #expect(transport.largestChunk > 64 << 10, "the largest buffer was \(transport.largestChunk) bytes")
        }
    }

    @Test("a download cut halfway resumes with Range + If-Range after an app restart: ≤ 110% transferred, bytes exact")
    func interruptedDownloadResumes() async throws {
        let file = generatedPDF(8 << 20, seed: 11)
        try await withMedia(files: [file]) { _, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            let transport = CountingMediaTransport(cutAfter: 4 << 20)

            // Given a download whose connection drops after half the file
            let first = try client.downloads(for: session, transport: transport, resumeLimit: 0)
            await #expect(throws: DownloadError.self) { try await first.fetch(lessonID: lesson, courseID: course) }
            #expect(await first.localFile(for: lesson) == nil)
            let afterCut = transport.bytes
            #expect(afterCut >= 4 << 20 && afterCut < file.count)

            // When the app restarts (a new client on the same data directory) and downloads again
            let restarted = makeEduGoClient(server: client.api.configuration.baseURL, directory: client.dataDirectory)
            let resumed = try #require(try await restarted.resumeSession())
            let second = try restarted.downloads(for: resumed, transport: transport)
            let url = try await second.fetch(lessonID: lesson, courseID: course)

            // Then it asked only for the rest, conditionally, and the file is the server's, byte for byte
            let resume = try #require(transport.requests.last)
            #expect(resume.headers["Range"] == "bytes=\(afterCut)-")
            #expect(resume.headers["If-Range"]?.count == 66)
            #expect(transport.requests.count == 2)
            #expect(transport.bytes == file.count)
            #expect(Double(transport.bytes) <= Double(file.count) * 1.10)
            #expect(sameBytes(try Data(contentsOf: url), file))
            #expect(await second.localFile(for: lesson) == url)
            #expect(await second.usage().totalBytes == Int64(file.count))
        }
    }

    @Test("a media answer the server cuts short twice (a truncate fault rule) is resumed by Downloads to a verified file")
    func truncatedAnswersAreResumed() async throws {
        let file = generatedPDF(3 << 20, seed: 23)
        try await withMedia(files: [file]) { server, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            // Given a rule that cuts the next two media answers after 1 MiB of body each
            try await server.inject(
                .truncate(afterBytes: 1 << 20), method: .get, path: "/v1/courses/*/lessons/*/media", times: 2, tenantID: "demo")
            let transport = CountingMediaTransport()
            let downloads = try client.downloads(for: session, transport: transport)

            // When the student downloads the lesson's file (one call)
            let url = try await downloads.fetch(lessonID: lesson, courseID: course)

            // Then it resumed twice, each time from where the bytes it got stopped (at most 1 MiB
            // further: the client may not deliver all the server sent before the close), and the
            // file is the server's
            let requests = transport.requests
            #expect(requests.count == 3)
            #expect(requests.first?.headers["Range"] == nil)
            let starts = requests.dropFirst().compactMap { request in
                request.headers["Range"].flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }
            }
            #expect(starts.count == 2)
            if starts.count == 2 {
                #expect(starts[0] > 0 && starts[0] <= 1 << 20, "\(starts)")
                #expect(starts[1] > starts[0] && starts[1] - starts[0] <= 1 << 20, "\(starts)")
            }
            #expect(requests.dropFirst().allSatisfy { $0.headers["If-Range"]?.count == 66 })
            #expect(transport.bytes == file.count)
            #expect(sameBytes(try Data(contentsOf: url), file))
            #expect(try await server.injectedFaults(tenantID: "demo").map(\.fired) == [2])
        }
    }

    @Test("the session hands out one Downloads; two of one user (two clients, two store connections) downloading at once keep both records")
    func twoOwnersKeepBothRecords() async throws {
        let files = [generatedPDF(3 << 20, seed: 21), generatedPDF(3 << 20, seed: 22)]
        try await withMedia(files: files) { server, client, session, _, course, lessons in
            let first = try #require(lessons.first)
            let second = try #require(lessons.last)
            #expect(first != second)
            // Given the session's Downloads, and a second client on the same data directory (its own
            // connection to the user's store, as a second `edugo download` process has)
            let downloads = try client.downloads(for: session)
            #expect(try client.downloads(for: session) === downloads)
            let other = makeEduGoClient(server: server.baseURL, directory: client.dataDirectory)
            let otherSession = try #require(try await other.resumeSession())
            let otherDownloads = try other.downloads(for: otherSession)
            #expect(otherDownloads !== downloads)

            // When each downloads a lesson at once
            async let one = downloads.fetch(lessonID: first, courseID: course)
            async let two = otherDownloads.fetch(lessonID: second, courseID: course)
            let (fileOne, fileTwo) = try await (one, two)

            // Then both records are kept, whichever instance reads them
            let expected = [first, second].sorted()
            #expect(await downloads.files().map(\.lessonID) == expected)
            #expect(await otherDownloads.files().map(\.lessonID) == expected)
            #expect(await downloads.localFile(for: second) == fileTwo)
            #expect(await otherDownloads.localFile(for: first) == fileOne)
            #expect(await downloads.usage().totalBytes == Int64(files[0].count + files[1].count))
            // And no manifest.json is written beside the files
            #expect(!FileManager.default.fileExists(atPath: downloads.directory.appendingPathComponent("manifest.json").path))
        }
    }

    @Test("with the server gone mid-file the download waits, then finishes by itself when it is back: ≤ 110% transferred")
    func waitsWhileOfflineAndResumesByItself() async throws {
        let file = generatedPDF(6 << 20, seed: 15)
        try await withMedia(files: [file]) { server, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            // Given a server that goes away once 2 MiB of the file arrived (the connection drops)
            let transport = CountingMediaTransport()
            transport.outage(after: 2 << 20) { await server.stop() }
            let downloads = try client.downloads(for: session, transport: transport)

            // When the download runs (one call) and the server comes back on the same port
            let progress = EventRecorder.recording(await downloads.download(lessonID: lesson, courseID: course))
            var waited: DownloadProgress?
            while waited == nil, let next = await progress.next(within: .seconds(30)) {
                if next.state == .waitingForNetwork { waited = next }
            }
            let waiting = try #require(waited, "the download never reported waitingForNetwork")
            #expect(waiting.bytesReceived >= 2 << 20 && waiting.bytesReceived < file.count)
            await transport.outageFinished()
            try await Task.sleep(for: .milliseconds(300))
            #expect(await downloads.localFile(for: lesson) == nil)
            try await server.restart()

            // Then it completes by itself, asking only for the rest, and the file is the server's
            var last: DownloadProgress?
            while let next = await progress.next(within: .seconds(60)) {
                last = next
                if case .completed = next.state { break }
            }
            let final = try #require(last)
            guard case .completed(let url) = final.state else {
                Issue.record("did not complete by itself: \(final)")
                return
            }
            let resume = try #require(transport.requests.last)
            #expect(resume.headers["Range"] == "bytes=\(waiting.bytesReceived)-")
            #expect(resume.headers["If-Range"]?.count == 66)
            #expect(transport.bytes == file.count)
            #expect(Double(transport.bytes) <= Double(file.count) * 1.10)
            #expect(sameBytes(try Data(contentsOf: url), file))
            #expect(await downloads.localFile(for: lesson) == url)
        }
    }

    @Test("cancelling a download that waits for the network ends it at once; the partial file is kept for later")
    func cancellingEndsTheWait() async throws {
        let file = generatedPDF(4 << 20, seed: 16)
        try await withMedia(files: [file]) { server, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            // Given a download waiting for a server that went away mid-file
            let transport = CountingMediaTransport()
            transport.outage(after: 1 << 20) { await server.stop() }
            let downloads = try client.downloads(for: session, transport: transport)
            let waiting = Mutex(false)
            let task = Task {
                try await downloads.fetch(lessonID: lesson, courseID: course) { progress in
                    if progress.state == .waitingForNetwork { waiting.withLock { $0 = true } }
                }
            }
            #expect(try await eventually { waiting.withLock { $0 } })
            await transport.outageFinished()

            // When the task is cancelled
            let start = ContinuousClock.now
            task.cancel()
            let result = await task.result

            // Then it ends promptly with CancellationError, nothing visible, the partial file kept
            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(await downloads.localFile(for: lesson) == nil)
            let partial = downloads.directory.appendingPathComponent("partial/\(lesson).part")
            #expect(FileManager.default.fileExists(atPath: partial.path))
        }
    }

    @Test("a byte corrupted on disk while the download was interrupted is caught by the checksum; nothing is made visible")
    func corruptedByteIsCaught() async throws {
        let file = generatedPDF(2 << 20, seed: 12)
        try await withMedia(files: [file]) { _, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            let transport = CountingMediaTransport(cutAfter: 1 << 20)
            let downloads = try client.downloads(for: session, transport: transport, resumeLimit: 0)
            await #expect(throws: DownloadError.self) { try await downloads.fetch(lessonID: lesson, courseID: course) }

            // Given one byte of the partial file flipped on disk
            let partial = downloads.directory.appendingPathComponent("partial/\(lesson).part")
            var bytes = try Data(contentsOf: partial)
            try #require(bytes.count > 1000, "the interrupted download kept \(bytes.count) bytes")
            bytes[1000] ^= 0xFF
            try bytes.write(to: partial)

            // When the download resumes, Then the checksum refuses it and no file is visible
            await #expect {
                try await downloads.fetch(lessonID: lesson, courseID: course)
            } throws: { error in
                if case DownloadError.checksumMismatch = error { return true }
                return false
            }
            #expect(await downloads.localFile(for: lesson) == nil)
            #expect(!FileManager.default.fileExists(atPath: partial.path))
            #expect(await downloads.usage().totalBytes == 0)

            // And the next download starts over and succeeds
            let url = try await downloads.fetch(lessonID: lesson, courseID: course)
            #expect(sameBytes(try Data(contentsOf: url), file))
        }
    }

    @Test("a byte changed on the wire fails the SHA-256 check: nothing is made visible, the partial file is removed")
    func byteChangedInTransitIsCaught() async throws {
        let file = generatedPDF(5 << 20, seed: 17)
        try await withMedia(files: [file]) { _, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            // Given a connection that flips one bit of the body, in its third MiB
            let downloads = try client.downloads(for: session, transport: CorruptingMediaTransport(flippingByteAt: (5 << 20) / 2 + 7))

            // When the download runs, Then the checksum refuses it and nothing is visible
            await #expect {
                try await downloads.fetch(lessonID: lesson, courseID: course)
            } throws: { error in
                if case DownloadError.checksumMismatch = error { return true }
                return false
            }
            #expect(await downloads.localFile(for: lesson) == nil)
            #expect(!FileManager.default.fileExists(atPath: downloads.directory.appendingPathComponent("partial/\(lesson).part").path))
            #expect(!FileManager.default.fileExists(atPath: downloads.directory.appendingPathComponent("files/\(lesson)").path))
            #expect(await downloads.usage().totalBytes == 0)
        }
    }

    @Test("a file replaced on the server while the download was interrupted starts over (If-Range no longer matches)")
    func changedFileStartsOver() async throws {
        let original = generatedPDF(2 << 20, seed: 13)
        let replacement = generatedPDF(3 << 20, seed: 14)
        try await withMedia(files: [original]) { _, client, session, author, course, lessons in
            let lesson = try #require(lessons.first)
            let transport = CountingMediaTransport(cutAfter: 1 << 20)
            let downloads = try client.downloads(for: session, transport: transport, resumeLimit: 0)
            await #expect(throws: DownloadError.self) { try await downloads.fetch(lessonID: lesson, courseID: course) }

            let (_, current) = try await author.lessons(ofCourseTitled: Self.swiftCourse)
            let version = try #require(current.first { $0.id == lesson }?.version)
            try await author.upload(replacement, course: course, lesson: lesson, version: version)

            let url = try await downloads.fetch(lessonID: lesson, courseID: course)
            #expect(try Data(contentsOf: url) == replacement)
        }
    }

    @Test("beyond the budget, cached files are evicted least recently used; pinned files are kept")
    func evictionKeepsPinned() async throws {
        let files = (0..<4).map { generatedPDF(1 << 20, seed: UInt64(20 + $0)) }
        try await withMedia(files: files) { _, client, session, _, course, lessons in
            let downloads = try client.downloads(for: session, budget: (5 << 20) / 2, transport: CountingMediaTransport())

            // A pinned, then B and C cached: 3 MiB > 2.5 MiB evicts the least recently used cached one, B
            try await downloads.fetch(lessonID: lessons[0], courseID: course, pinned: true)
            try await downloads.fetch(lessonID: lessons[1], courseID: course, pinned: false)
            try await downloads.fetch(lessonID: lessons[2], courseID: course, pinned: false)
            #expect(await downloads.localFile(for: lessons[0]) != nil)
            #expect(await downloads.localFile(for: lessons[1]) == nil)
            #expect(await downloads.localFile(for: lessons[2]) != nil)

            // D cached evicts C (A is older but pinned)
            try await downloads.fetch(lessonID: lessons[3], courseID: course, pinned: false)
            #expect(await downloads.localFile(for: lessons[0]) != nil)
            #expect(await downloads.localFile(for: lessons[2]) == nil)
            #expect(await downloads.localFile(for: lessons[3]) != nil)
            let usage = await downloads.usage()
            #expect(usage.totalBytes == 2 << 20)
            #expect(usage.pinnedBytes == 1 << 20)
            #expect(usage.bytesByCourse == [course: 2 << 20])
        }
    }

    @Test("cached files live in the cache directory: pinning moves one out, one the system purged is forgotten and fetched again")
    func cachedFilesLiveApart() async throws {
        let files = (0..<3).map { generatedPDF(256 << 10, seed: UInt64(40 + $0)) }
        try await withMedia(files: files) { _, client, session, _, course, lessons in
            let transport = CountingMediaTransport()
            let downloads = try client.downloads(for: session, transport: transport)
            let cache = downloads.cacheDirectory.standardizedFileURL.path + "/"

            // Given one pinned file and two cached ones
            let pinned = try await downloads.fetch(lessonID: lessons[0], courseID: course, pinned: true)
            let cached = try await downloads.fetch(lessonID: lessons[1], courseID: course, pinned: false)
            let purgeable = try await downloads.fetch(lessonID: lessons[2], courseID: course, pinned: false)
            #expect(!pinned.standardizedFileURL.path.hasPrefix(cache))
            #expect(cached.standardizedFileURL.path.hasPrefix(cache))
            #expect(purgeable.standardizedFileURL.path.hasPrefix(cache))

            // When a cached file is asked for as pinned, it moves out of the cache without a transfer
            let transferred = transport.bytes
            let kept = try await downloads.fetch(lessonID: lessons[1], courseID: course, pinned: true)
            #expect(transport.bytes == transferred)
            #expect(!kept.standardizedFileURL.path.hasPrefix(cache))
            #expect(try Data(contentsOf: kept) == files[1])
            #expect(await downloads.usage().pinnedBytes == Int64(files[0].count + files[1].count))

            // When the system empties the caches directory
            try FileManager.default.removeItem(at: downloads.cacheDirectory)

            // Then the purged file is neither offered nor counted; the pinned ones are
            #expect(await downloads.files().map(\.lessonID).sorted() == [lessons[0], lessons[1]].sorted())
            #expect(await downloads.usage().totalBytes == Int64(files[0].count + files[1].count))
            #expect(await downloads.localFile(for: lessons[2]) == nil)

            // And asking for it again downloads it again, into the cache
            let again = try await downloads.fetch(lessonID: lessons[2], courseID: course, pinned: false)
            #expect(transport.bytes == transferred + files[2].count)
            #expect(again.standardizedFileURL.path.hasPrefix(cache))
            #expect(try Data(contentsOf: again) == files[2])

            // Sign-out removes the cached files with the pinned ones
            try await client.signOut()
            #expect(!FileManager.default.fileExists(atPath: downloads.cacheDirectory.path))
            #expect(!FileManager.default.fileExists(atPath: downloads.directory.path))
        }
    }

    @Test("the progress stream reports queued, downloading, verifying and completed; sign-out removes the files")
    func progressStreamAndSignOut() async throws {
        let file = generatedPDF(1 << 20, seed: 30)
        try await withMedia(files: [file]) { _, client, session, _, course, lessons in
            let lesson = try #require(lessons.first)
            let downloads = try client.downloads(for: session)

            var states: [DownloadProgress.State] = []
            var last: DownloadProgress?
            for try await progress in await downloads.download(lessonID: lesson, courseID: course) {
                if states.last != progress.state { states.append(progress.state) }
                last = progress
            }

            let final = try #require(last)
            #expect(states.first == .queued)
            #expect(states.contains(.downloading) && states.contains(.verifying))
            guard case .completed(let url) = final.state else {
                Issue.record("did not complete: \(final)")
                return
            }
            #expect(final.bytesReceived == Int64(file.count))
            #expect(sameBytes(try Data(contentsOf: url), file))

            try await client.signOut()
            #expect(!FileManager.default.fileExists(atPath: downloads.directory.path))
        }
    }
}

/// The real transport, with one byte of every body flipped on its way (at `index` of the body).
private struct CorruptingMediaTransport: MediaTransport {
    let index: Int
    private let inner = AsyncHTTPClientMediaTransport()

    init(flippingByteAt index: Int) {
        self.index = index
    }

    func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        var offset = 0
        try await inner.fetch(request, onHead: onHead) { chunk in
            var chunk = chunk
            if (offset..<offset + chunk.count).contains(index) {
                chunk[chunk.startIndex + index - offset] ^= 0x01
            }
            offset += chunk.count
            try await onChunk(chunk)
        }
    }
}

/// The default media transport on Linux, noting the largest buffer of a body it hands on.
private final class ChunkRecordingTransport: MediaTransport {
    private let inner = AsyncHTTPClientMediaTransport()
    private let largest = Mutex(0)

    var largestChunk: Int { largest.withLock { $0 } }

    func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        try await inner.fetch(request, onHead: onHead) { chunk in
            largest.withLock { $0 = max($0, chunk.count) }
            try await onChunk(chunk)
        }
    }
}
