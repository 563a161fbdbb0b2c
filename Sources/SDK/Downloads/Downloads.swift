import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lesson media kept on the device for offline use: downloaded streaming to disk in 1 MiB blocks,
/// each written (direct I/O on Linux) and hashed on tasks of their own while the next arrives (at
/// most five blocks per download, whatever the file's size), resumed after an interruption with
/// `Range` + `If-Range` (after an app restart too), verified against the server's SHA-256 before it
/// becomes visible, moved into place atomically, and kept within a storage budget.
///
/// Made with a ``ConnectivityMonitor`` (as ``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)``
/// makes it), a download whose connection is lost reports ``DownloadProgress/State/waitingForNetwork``,
/// waits until the monitor reports the server reachable, and continues from the bytes it has, by
/// itself. It waits as long as that takes: cancel the consuming task to stop it. It gives up with
/// ``DownloadError/interrupted(bytesReceived:)`` only after ``resumeLimit`` lost connections in a
/// row that brought no byte (a connection that fails each time although the server answers its
/// health probe). The server's refusals (403, 404, ...), a checksum mismatch, a refused
/// certificate or pin and a disk failure are never waited on.
///
/// Files the user asked to keep are *pinned* and never evicted; others (prefetched) are a cache
/// evicted least-recently-used when the budget is exceeded. At most ``maxConcurrent`` downloads
/// run at a time.
///
/// What is downloaded is recorded in the user's ``OfflineStore``, one row per lesson, each change
/// one transaction: two `Downloads` of one user (in one process or two) keep each other's records.
/// An ``OfflineSession`` has one (``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)``
/// hands it out).
///
/// ```swift
/// let downloads = try edugo.downloads(for: session)
/// for try await progress in await downloads.download(lessonID: lesson, courseID: course) {
///     print(progress.bytesReceived, progress.totalBytes ?? 0)
/// }
/// let file = await downloads.localFile(for: lesson)   // usable offline
/// ```
public actor Downloads {
    /// `<data dir>/downloads/<tenant>/<user>/`: pinned files in `files/`, partial ones in `partial/`.
    public nonisolated var directory: URL { locations.directory }
    /// Where cached (not pinned) files live: the caches directory on Apple platforms (see ``DownloadLocations``).
    public nonisolated var cacheDirectory: URL { locations.cacheDirectory }
    /// The most downloads that run at a time.
    public nonisolated let maxConcurrent: Int
    /// How many lost connections in a row without a byte received a download waits through
    /// before it fails (0: never wait; always 0 without a monitor). Receiving a byte starts the
    /// count again. A waiting download keeps its place among the ``maxConcurrent``.
    public nonisolated let resumeLimit: Int
    /// Bytes the cached (not pinned) files may take along with the pinned ones.
    public private(set) var budget: Int64

    private nonisolated let locations: DownloadLocations
    private let baseURL: URL
    private let session: TokenRefreshCoordinator
    private let transport: any MediaTransport
    private let monitor: ConnectivityMonitor?
    private let now: @Sendable () -> Date
    private let slots: DownloadSlots
    /// The user's store, which holds the records.
    private let store: OfflineStore
    private var active: Set<String> = []
    /// How downloads gather, write and hash their bytes (``use(_:)`` changes it).
    private(set) var pipeline = DownloadPipeline()

    /// Creates the downloads of one user, whose records are in `store`.
    ///
    /// A `manifest.json` that an older SDK left in `directory` is imported into the store once,
    /// then deleted.
    ///
    /// - Parameters:
    ///   - store: The user's store, where the records live.
    ///   - directory: Where this user's pinned and partial files live (created if needed).
    ///   - cacheDirectory: Where cached (not pinned) files live; `directory/cache/` when `nil`.
    ///     ``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)`` passes the
    ///     system's caches directory on Apple platforms.
    ///   - baseURL: The server's base URL.
    ///   - session: Supplies (and refreshes) the access token.
    ///   - transport: Streams responses; AsyncHTTPClient on Linux, `URLSession` elsewhere by default,
    ///     without certificate pinning: pass ``APIConfiguration/makeDefaultMediaTransport()`` to pin
    ///     (``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)`` pins with its
    ///     client's configuration).
    ///   - budget: Bytes the files may take; cached ones are evicted beyond it.
    ///   - maxConcurrent: Downloads at a time (2 by default).
    ///   - now: The clock of the least-recently-used order.
    ///   - monitor: Tells when the server is reachable again after a lost connection; without one a
    ///     lost connection fails the download with ``DownloadError/interrupted(bytesReceived:)``.
    ///   - resumeLimit: Lost connections in a row without a byte received that a download waits
    ///     through before it fails (see ``resumeLimit``).
    public init(
        store: OfflineStore, directory: URL, cacheDirectory: URL? = nil, baseURL: URL, session: TokenRefreshCoordinator,
        transport: (any MediaTransport)? = nil, budget: Int64 = 2 << 30, maxConcurrent: Int = 2,
        now: @escaping @Sendable () -> Date = { Date() }, monitor: ConnectivityMonitor? = nil, resumeLimit: Int = 10
    ) throws {
        self.locations = DownloadLocations(directory: directory, cacheDirectory: cacheDirectory)
        self.baseURL = baseURL
        self.session = session
        self.transport = transport ?? Self.defaultTransport()
        self.monitor = monitor
        self.resumeLimit = monitor == nil ? 0 : max(0, resumeLimit)
        self.budget = budget
        self.maxConcurrent = max(1, maxConcurrent)
        self.now = now
        self.slots = DownloadSlots(limit: maxConcurrent)
        try locations.create()
        // Pinned and cached files alike are re-downloadable: out of backups on Apple platforms.
        ProtectedDirectory.protect(directory)
        self.store = store
        let legacy = locations.legacyManifest
        if FileManager.default.fileExists(atPath: legacy.path) {
            try store.importDownloadRecords(LegacyDownloadManifest.records(at: legacy))
            try FileManager.default.removeItem(at: legacy)
        }
    }

    static func defaultTransport() -> any MediaTransport {
        #if canImport(AsyncHTTPClient)
        AsyncHTTPClientMediaTransport()
        #else
        URLSessionMediaTransport()
        #endif
    }

    // MARK: - Downloading

    /// Downloads (or resumes) a lesson's media, reporting progress (`.downloading` once per block
    /// received); the stream ends after the `.completed` element, or throws a ``DownloadError``. Cancelling the iteration stops the
    /// download (its partial file is kept for a resume).
    ///
    /// - Parameters:
    ///   - pinned: Keep the file whatever the budget (`true`), or cache it (`false`, a prefetch).
    public func download(
        lessonID: String, courseID: String, pinned: Bool = true
    ) -> AsyncThrowingStream<DownloadProgress, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DownloadProgress, any Error>.makeStream()
        // The stream owns the work: it is cancelled when the consumer stops iterating.
        let work = Task {
            do {
                _ = try await self.fetch(lessonID: lessonID, courseID: courseID, pinned: pinned) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in work.cancel() }
        return stream
    }

    /// Downloads (or resumes) a lesson's media and returns its verified local file.
    ///
    /// - Throws: ``DownloadError``; on ``DownloadError/interrupted(bytesReceived:)`` (a lost
    ///   connection without a monitor, or beyond ``resumeLimit``) the partial file is kept and the
    ///   next call resumes it. `CancellationError` when the task is cancelled (waiting included).
    @discardableResult
    public func fetch(
        lessonID: String, courseID: String, pinned: Bool = true,
        onProgress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws -> URL {
        try Self.checkIdentifier(lessonID)
        try Self.checkIdentifier(courseID)
        var known = try await store.downloadRecord(lessonID)
        if let marked = known, marked.complete, marked.needsCheck, Self.exists(fileURL(marked)) {
            // A reset since the file was verified: served only once the server confirms its media;
            // otherwise (changed, or the server could not say) it is downloaded again.
            if await recheck(marked) == .current {
                known?.needsCheck = false
            } else {
                known = try await store.downloadRecord(lessonID)
            }
        }
        if var record = known, record.complete, !record.needsCheck, Self.exists(fileURL(record)) {
            if pinned, !record.pinned {
                // Kept from now on: out of the cache, which the system may empty.
                let kept = locations.file(lessonID, pinned: true)
                try? FileManager.default.removeItem(at: kept)
                try FileManager.default.moveItem(at: fileURL(record), to: kept)
                record.pinned = true
            }
            try await store.useDownload(lessonID, pinned: record.pinned, at: now())
            let file = fileURL(record)
            onProgress(DownloadProgress(
                lessonID: lessonID, bytesReceived: record.size ?? 0, totalBytes: record.size, state: .completed(file)))
            return file
        }
        let previous = known
        guard active.insert(lessonID).inserted else { throw DownloadError.alreadyInProgress(lessonID: lessonID) }
        defer { active.remove(lessonID) }
        onProgress(DownloadProgress(lessonID: lessonID, bytesReceived: 0, totalBytes: nil, state: .queued))
        let pipeline = pipeline
        return try await slots.run {
            try await self.transfer(
                lessonID: lessonID, courseID: courseID, pinned: pinned || (previous?.pinned ?? false),
                etag: previous?.complete == false ? previous?.etag : nil, pipeline: pipeline, onProgress: onProgress)
        }
    }

    /// Downloads until done: a 401 refreshes the token once; a 416 or a changed file starts over; a
    /// lost connection waits for the monitor and resumes (see ``resumeLimit``).
    private nonisolated func transfer(
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

    /// Gathers, writes and hashes the bytes of the downloads started from now on as `pipeline`
    /// says (tests use small blocks).
    func use(_ pipeline: DownloadPipeline) {
        self.pipeline = pipeline
    }

    // MARK: - Reading and removing

    /// The verified local file of a lesson, `nil` when it is not (completely) downloaded. Marks
    /// it recently used.
    ///
    /// After a reset (the server's data was replaced: a snapshot restore, an import) a file is
    /// served only once the server confirms it still has the same media (a conditional `GET` whose
    /// body is never read): a file whose media changed is removed, and while the server cannot be
    /// asked the answer is `nil` (the file is kept and asked about again on the next call).
    public func localFile(for lessonID: String) async -> URL? {
        guard let record = try? await store.downloadRecord(lessonID), record.complete else { return nil }
        let file = fileURL(record)
        guard Self.exists(file) else {
            try? await store.forgetDownloads([record])  // a cached file the system removed
            return nil
        }
        if record.needsCheck, await recheck(record) != .current { return nil }
        try? await store.touchDownload(lessonID, at: now())
        return file
    }

    /// Hashes a downloaded file again; a file whose bytes changed on disk is deleted. After a reset
    /// it also asks the server whether the lesson's media is still the file's.
    ///
    /// - Throws: ``DownloadError/checksumMismatch(expected:actual:)`` (the file is removed);
    ///   ``DownloadError/changedOnServer(lessonID:)`` when a reset replaced the media (the file is
    ///   removed); ``DownloadError/interrupted(bytesReceived:)`` when the server could not be asked
    ///   after a reset (the file is kept, still awaiting the check).
    public func verify(lessonID: String) async throws {
        guard let record = try await store.downloadRecord(lessonID), record.complete, let expected = record.sha256 else { return }
        let actual = try Self.sha256(of: fileURL(record))
        guard actual == expected else {
            await remove(lessonID: lessonID)
            throw DownloadError.checksumMismatch(expected: expected, actual: actual)
        }
        guard record.needsCheck else { return }
        switch await recheck(record) {
        case .current: return
        case .changed: throw DownloadError.changedOnServer(lessonID: lessonID)
        case .unknown: throw DownloadError.interrupted(bytesReceived: 0)
        }
    }

    /// Asks the server whether a file a reset marked still holds the lesson's media: a conditional
    /// `GET` (`If-None-Match` with the file's `ETag`) whose body is never read. A confirmed file is
    /// unmarked; a changed one is removed (record and file, while the record is still this one).
    private func recheck(_ record: DownloadRecord) async -> MediaCheck {
        let check: MediaCheck
        if let etag = record.etag {
            check = (try? await askServer(about: record, etag: etag)) ?? .unknown
        } else {
            check = .changed
        }
        switch check {
        case .current:
            if let etag = record.etag { try? await store.confirmDownload(record.lessonID, etag: etag) }
        case .changed:
            if (try? await store.discardStaleDownload(record)) == true {
                try? FileManager.default.removeItem(at: fileURL(record))
            }
        case .unknown:
            break
        }
        return check
    }

    /// The server's answer about `record`'s media, read from the response head alone (a 401
    /// refreshes the token once).
    private nonisolated func askServer(about record: DownloadRecord, etag: String) async throws -> MediaCheck {
        var token = try await session.validAccessToken()
        for attempt in 0..<2 {
            var status = 0
            var tag: String?
            let request = MediaRequest(
                url: try mediaURL(courseID: record.courseID, lessonID: record.lessonID),
                headers: ["Authorization": "Bearer \(token)", "Accept": "*/*", "If-None-Match": etag])
            do {
                try await transport.fetch(request, onHead: { head in
                    status = head.statusCode
                    tag = head["etag"]
                    throw HeadRead()  // the body (a whole file when the media changed) is not wanted
                }, onChunk: { _ in })
            } catch is HeadRead {}
            if status == 401, attempt == 0 {
                token = try await session.accessTokenAfterUnauthorized(failedToken: token)
                continue
            }
            return MediaCheck.decide(status: status, etag: tag, recorded: etag)
        }
        return .unknown
    }

    /// Ends a response after its head.
    private struct HeadRead: Error {}

    /// The complete files, by course then lesson.
    public func files() async -> [DownloadedFile] {
        await completeRecords().compactMap { record in
            guard let sha256 = record.sha256 else { return nil }
            return DownloadedFile(
                lessonID: record.lessonID, courseID: record.courseID, file: fileURL(record),
                size: record.size ?? 0, sha256: sha256, contentType: record.contentType, pinned: record.pinned,
                awaitingCheck: record.needsCheck)
        }.sorted { ($0.courseID, $0.lessonID) < ($1.courseID, $1.lessonID) }
    }

    /// Bytes kept, per course and in all (complete files).
    public func usage() async -> DownloadUsage {
        var byCourse: [String: Int64] = [:]
        var total: Int64 = 0
        var pinned: Int64 = 0
        for record in await completeRecords() {
            let size = record.size ?? 0
            byCourse[record.courseID, default: 0] += size
            total += size
            if record.pinned { pinned += size }
        }
        return DownloadUsage(bytesByCourse: byCourse, totalBytes: total, pinnedBytes: pinned)
    }

    /// Removes a lesson's file (complete or partial).
    public func remove(lessonID: String) async {
        for pinned in [true, false] { try? FileManager.default.removeItem(at: locations.file(lessonID, pinned: pinned)) }
        try? FileManager.default.removeItem(at: locations.partial(lessonID))
        try? await store.removeDownloadRecords([lessonID])
    }

    /// Removes every file of a course.
    public func remove(courseID: String) async {
        let records = (try? await store.downloadRecords()) ?? []
        for record in records where record.courseID == courseID {
            await remove(lessonID: record.lessonID)
        }
    }

    /// Changes the budget, evicting cached files beyond it at once.
    public func setBudget(_ bytes: Int64) async throws {
        budget = bytes
        await dropPurged()
        deleteFiles(of: try await store.evictDownloads(toFit: bytes))
    }

    // MARK: - Records

    private func noteStarted(
        lessonID: String, courseID: String, pinned: Bool, etag: String, size: Int64?, contentType: String?
    ) async throws {
        try await store.saveDownloadRecord(DownloadRecord(
            lessonID: lessonID, courseID: courseID, pinned: pinned, etag: etag, size: size, contentType: contentType,
            complete: false, lastUsed: now()))
    }

    /// Records the file as complete and evicts cached files beyond the budget (one transaction).
    private func noteCompleted(lessonID: String, size: Int64) async throws {
        await dropPurged()
        deleteFiles(of: try await store.completeDownload(lessonID, size: size, at: now(), budget: budget))
    }

    /// Deletes the cached files of evicted records.
    private func deleteFiles(of evicted: [DownloadRecord]) {
        for record in evicted { try? FileManager.default.removeItem(at: fileURL(record)) }
    }

    /// The complete files' records, after forgetting those whose files are gone.
    private func completeRecords() async -> [DownloadRecord] {
        await dropPurged()
        return ((try? await store.downloadRecords()) ?? []).filter(\.complete)
    }

    /// Forgets the complete files that are gone from disk: cached ones the system removed to free
    /// storage (Apple platforms), or any file deleted behind the SDK's back.
    private func dropPurged() async {
        let records = (try? await store.downloadRecords()) ?? []
        let gone = records.filter { $0.complete && !Self.exists(fileURL($0)) }
        guard !gone.isEmpty else { return }
        try? await store.forgetDownloads(gone)
    }

    // MARK: - Paths and helpers

    /// Where a record's complete file lives (pinned or cached).
    private nonisolated func fileURL(_ record: DownloadRecord) -> URL {
        locations.file(record.lessonID, pinned: record.pinned)
    }

    private static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    private nonisolated func mediaURL(courseID: String, lessonID: String) throws -> URL {
        baseURL.appendingPathComponent("v1/courses/\(courseID)/lessons/\(lessonID)/media")
    }

    /// Ids become path segments and file names: only letters, digits, `-` and `_`.
    static func checkIdentifier(_ id: String) throws {
        guard !id.isEmpty, id.count <= 128,
            id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { throw DownloadError.invalidIdentifier(id) }
    }

    static func fileSize(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The SHA-256 of a file, read 1 MiB at a time.
    static func sha256(of url: URL) throws -> String {
        hex(try hasher(ofFile: url).finalize())
    }

    /// A hasher fed with a file's bytes, read 1 MiB at a time.
    static func hasher(ofFile url: URL) throws -> SHA256 {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Removes every downloaded file of a user, pinned, cached or partial (sign-out).
    public static func removeAll(dataDirectory: URL, tenantID: String, userID: String) {
        DownloadLocations(dataDirectory: dataDirectory, tenantID: tenantID, userID: userID).removeAll()
    }
}

extension DownloadRecord {
    static func isSHA256Tag(_ tag: String) -> Bool { sha256(of: tag) != nil }

    /// The hex digest an `ETag` of the form `"<sha256>"` names.
    static func sha256(of tag: String) -> String? {
        guard tag.count == 66, tag.hasPrefix("\""), tag.hasSuffix("\"") else { return nil }
        let hex = tag.dropFirst().dropLast()
        return hex.allSatisfy { $0.isHexDigit && !$0.isUppercase } ? String(hex) : nil
    }
}
