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

    nonisolated let locations: DownloadLocations
    let baseURL: URL
    let session: TokenRefreshCoordinator
    let transport: any MediaTransport
    let monitor: ConnectivityMonitor?
    let now: @Sendable () -> Date
    private let slots: DownloadSlots
    /// The user's store, which holds the records.
    let store: OfflineStore
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

    /// Gathers, writes and hashes the bytes of the downloads started from now on as `pipeline`
    /// says (tests use small blocks).
    func use(_ pipeline: DownloadPipeline) {
        self.pipeline = pipeline
    }

    /// Changes the budget, evicting cached files beyond it at once.
    public func setBudget(_ bytes: Int64) async throws {
        budget = bytes
        await dropPurged()
        deleteFiles(of: try await store.evictDownloads(toFit: bytes))
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
}
