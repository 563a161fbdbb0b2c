import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``Downloads`` keeps its records in the user's ``OfflineStore``: a `manifest.json` left by an
/// older SDK is imported once, and nothing writes one any more.
@Suite(.timeLimit(.minutes(1))) struct DownloadRecordsTests {
    let sha = String(repeating: "ab", count: 32)

    func record(_ lessonID: String, courseID: String = "course-1", size: Int64 = 5) -> DownloadRecord {
        DownloadRecord(
            lessonID: lessonID, courseID: courseID, pinned: true, etag: "\"\(sha)\"", size: size,
            contentType: "application/pdf", complete: true, lastUsed: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// Writes what an older SDK left: `manifest.json` and the files it lists.
    func writeLegacy(_ records: [DownloadRecord], in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("files"), withIntermediateDirectories: true)
        for record in records {
            try Data("hello".utf8).write(to: directory.appendingPathComponent("files/\(record.lessonID)"))
        }
        struct Manifest: Encodable { var records: [String: DownloadRecord] }
        let manifest = Manifest(records: Dictionary(uniqueKeysWithValues: records.map { ($0.lessonID, $0) }))
        try JSONEncoder().encode(manifest).write(to: directory.appendingPathComponent("manifest.json"))
    }

    func downloads(store: OfflineStore, directory: URL) throws -> Downloads {
        let client = Fixture.client(transport: StubTransport { _ in .ok })
        return try Downloads(store: store, directory: directory, baseURL: Fixture.baseURL, session: client.session)
    }

    @Test("an older SDK's manifest.json is imported into the store once and deleted")
    func legacyManifestIsImportedOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("download-records-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("downloads")
        let store = try OfflineStore.open(directory: root, tenantID: Fixture.tenantID, userID: "user-1")
        try writeLegacy([record("lesson-1"), record("lesson-2", courseID: "course-2")], in: directory)

        // When a Downloads opens on it
        let first = try downloads(store: store, directory: directory)

        // Then the records are in the store, and the manifest is gone
        #expect(await first.files().map(\.lessonID) == ["lesson-1", "lesson-2"])
        #expect(await first.usage().totalBytes == 10)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path))

        // And a lesson removed after the import stays removed for the next Downloads
        await first.remove(lessonID: "lesson-2")
        let second = try downloads(store: store, directory: directory)
        #expect(await second.files().map(\.lessonID) == ["lesson-1"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("manifest.json").path))
    }

    @Test("changes made through one store connection are seen through another (two processes)")
    func recordsAreSharedAcrossConnections() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("download-records-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("downloads")
        try writeLegacy([record("lesson-1"), record("lesson-2")], in: directory)
        let one = try downloads(store: OfflineStore.open(directory: root, tenantID: Fixture.tenantID, userID: "user-1"), directory: directory)
        let other = try downloads(store: OfflineStore.open(directory: root, tenantID: Fixture.tenantID, userID: "user-1"), directory: directory)

        // When one removes a lesson, the other no longer lists it
        await one.remove(lessonID: "lesson-1")
        #expect(await other.files().map(\.lessonID) == ["lesson-2"])
    }
}
