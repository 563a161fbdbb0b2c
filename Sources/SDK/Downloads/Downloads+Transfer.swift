import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One download's transfer: requests, resumes, restarts and waits.
extension Downloads {
    /// Downloads until done: a 401 refreshes the token once; a 416 or a changed file starts over; a
    /// lost connection waits for the monitor and resumes (see ``resumeLimit``).
    nonisolated func transfer(
        lessonID: String, courseID: String, pinned: Bool, etag knownEtag: String?, pipeline: DownloadPipeline,
        onProgress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws -> URL {
        let partial = locations.partial(lessonID)
        var resumeEtag = knownEtag
        var token = try await session.validAccessToken()
        var refreshed = false
        var restarts = 0
        var waits = 0
        /// Waits for the server after a lost connection, or throws when this download does not wait.
        func waitForNetwork(after error: any Error, received: Int64, progressSince offset: Int64, total: Int64?) async throws {
            try Task.checkCancellation()
            let interruption = DownloadInterruption.classify(error)
            if case .untrusted(let refusal) = interruption { throw DownloadError.untrustedServer(refusal) }
            guard let monitor, interruption == .connectionLost else {
                throw DownloadError.interrupted(bytesReceived: received)
            }
            waits = received > offset ? 1 : waits + 1
            guard waits <= resumeLimit else { throw DownloadError.interrupted(bytesReceived: received) }
            onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: received, totalBytes: total, state: .waitingForNetwork))
            // The lost media connection is news to the monitor, as a failed API request would be.
            monitor.set(false)
            try await monitor.waitUntilConnected()
            // A wait can outlast the access token: the next attempt starts with a valid one.
            token = try await session.validAccessToken()
            refreshed = false
            restarts = 0
        }
        while true {
            var offset = Self.fileSize(partial)
            if resumeEtag == nil || offset == 0 {
                try? FileManager.default.removeItem(at: partial)
                offset = 0
            }
            var headers = ["Authorization": "Bearer \(token)", "Accept": "*/*"]
            if offset > 0, let resumeEtag {
                headers["Range"] = "bytes=\(offset)-"
                headers["If-Range"] = resumeEtag
            }
            let request = MediaRequest(url: try mediaURL(courseID: courseID, lessonID: lessonID), headers: headers)
            // Arriving bytes are gathered into blocks and handed, behind a bounded hand-off, to a task
            // of their own that writes each with one `write`, then to another that hashes it: memory
            // stays flat, and the disk and the hash overlap with receiving. A resume hashes the
            // partial file's bytes from disk first, so a byte that changed there is caught too.
            let handOff = BlockHandOff(capacity: pipeline.blocksInFlight)
            var gatherer = BlockGatherer(pipeline: pipeline, handOff: handOff)
            var received = offset
            var total: Int64?
            var etag: String?
            var retry: RetryReason?
            var digest: SHA256.Digest?
            do {
                digest = try await withThrowingTaskGroup(of: SHA256.Digest?.self) { group in
                    /// Hands on what was gathered and waits until the writer stored it: the partial
                    /// file keeps every byte received, for a resume.
                    func keepReceived() async {
                        try? await gatherer.flush()
                        handOff.close()
                        _ = try? await group.next()
                    }
                    do {
                        try await transport.fetch(request, onHead: { head in
                            switch head.statusCode {
                            case 200:
                                received = 0
                                total = head["content-length"].flatMap { Int64($0) }
                            case 206:
                                guard let range = ContentRange(head["content-range"]), range.first == offset else {
                                    throw DownloadError.invalidResponse("206 without a Content-Range continuing byte \(offset)")
                                }
                                total = range.size
                            case 401:
                                throw RetryReason.unauthorized
                            case 416:
                                throw RetryReason.startOver
                            default:
                                throw DownloadError.refused(status: head.statusCode, code: nil)
                            }
                            guard let tag = head["etag"], DownloadRecord.isSHA256Tag(tag) else {
                                throw DownloadError.invalidResponse("no SHA-256 ETag")
                            }
                            etag = tag
                            resumeEtag = tag
                            let existing = head.statusCode == 206 ? offset : 0
                            try await DownloadDiskFailure.marking {
                                // The writer creates it afresh.
                                if existing == 0 { try? FileManager.default.removeItem(at: partial) }
                                try await self.noteStarted(
                                    lessonID: lessonID, courseID: courseID, pinned: pinned, etag: tag, size: total,
                                    contentType: head["content-type"])
                            }
                            group.addTask {
                                try await PartialFileWriter.write(handOff, to: partial, after: existing, pipeline: pipeline)
                            }
                            onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: received, totalBytes: total, state: .downloading))
                        }, onChunk: { data in
                            try Task.checkCancellation()
                            let handed = try await DownloadDiskFailure.marking { try await gatherer.append(data) }
                            received += Int64(data.count)
                            // Progress once per block: not a task switch per chunk.
                            if handed {
                                onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: received, totalBytes: total, state: .downloading))
                            }
                        })
                    } catch {
                        await keepReceived()
                        throw error
                    }
                    // A body that ended early without an error is a lost connection (below); no hash.
                    if let total, received != total {
                        await keepReceived()
                        return nil
                    }
                    try await DownloadDiskFailure.marking { try await gatherer.flush() }
                    handOff.close()
                    onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: received, totalBytes: total, state: .verifying))
                    return try await DownloadDiskFailure.marking { try await group.next() ?? nil }
                }
            } catch let reason as RetryReason {
                retry = reason
            } catch let error as DownloadError {
                throw error
            } catch {
                if error is CancellationError { throw error }
                try await waitForNetwork(after: error, received: received, progressSince: offset, total: total)
                continue
            }
            if retry != nil {
                restarts += 1
                guard restarts < 4 else { throw DownloadError.invalidResponse("the server kept answering 401 or 416") }
            }
            switch retry {
            case .unauthorized:
                guard !refreshed else { throw DownloadError.refused(status: 401, code: nil) }
                refreshed = true
                token = try await session.accessTokenAfterUnauthorized(failedToken: token)
                continue
            case .startOver:
                resumeEtag = nil
                continue
            case nil:
                break
            }
            guard let etag, let expected = DownloadRecord.sha256(of: etag) else {
                throw DownloadError.invalidResponse("no SHA-256 ETag")
            }
            guard let digest else {
                // The body ended early without an error: a lost connection too.
                try await waitForNetwork(
                    after: NetworkError.noConnection, received: received, progressSince: offset, total: total)
                continue
            }
            let actual = Self.hex(digest)
            guard actual == expected else {
                try? FileManager.default.removeItem(at: partial)
                try? await store.removeDownloadRecords([lessonID])
                throw DownloadError.checksumMismatch(expected: expected, actual: actual)
            }
            let file = locations.file(lessonID, pinned: pinned)
            try? FileManager.default.removeItem(at: locations.file(lessonID, pinned: !pinned))
            // The system may have emptied the caches directory since this instance made it.
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard rename(partial.path, file.path) == 0 else {
                throw DownloadError.invalidResponse("could not move the file into place (errno \(errno))")
            }
            try await noteCompleted(lessonID: lessonID, size: received)
            onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: received, totalBytes: received, state: .completed(file)))
            return file
        }
    }

    private enum RetryReason: Error { case unauthorized, startOver }
}
