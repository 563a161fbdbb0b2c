import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is downloaded: reading, checking and removing files, and their records.
extension Downloads {
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
    func recheck(_ record: DownloadRecord) async -> MediaCheck {
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
    nonisolated func askServer(about record: DownloadRecord, etag: String) async throws -> MediaCheck {
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

    // MARK: - Records

    func noteStarted(
        lessonID: String, courseID: String, pinned: Bool, etag: String, size: Int64?, contentType: String?
    ) async throws {
        try await store.saveDownloadRecord(DownloadRecord(
            lessonID: lessonID, courseID: courseID, pinned: pinned, etag: etag, size: size, contentType: contentType,
            complete: false, lastUsed: now()))
    }

    /// Records the file as complete and evicts cached files beyond the budget (one transaction).
    func noteCompleted(lessonID: String, size: Int64) async throws {
        await dropPurged()
        deleteFiles(of: try await store.completeDownload(lessonID, size: size, at: now(), budget: budget))
    }

    /// Deletes the cached files of evicted records.
    func deleteFiles(of evicted: [DownloadRecord]) {
        for record in evicted { try? FileManager.default.removeItem(at: fileURL(record)) }
    }

    /// The complete files' records, after forgetting those whose files are gone.
    func completeRecords() async -> [DownloadRecord] {
        await dropPurged()
        return ((try? await store.downloadRecords()) ?? []).filter(\.complete)
    }

    /// Forgets the complete files that are gone from disk: cached ones the system removed to free
    /// storage (Apple platforms), or any file deleted behind the SDK's back.
    func dropPurged() async {
        let records = (try? await store.downloadRecords()) ?? []
        let gone = records.filter { $0.complete && !Self.exists(fileURL($0)) }
        guard !gone.isEmpty else { return }
        try? await store.forgetDownloads(gone)
    }
}
