import Foundation

/// Where one user's downloads live.
///
/// Pinned files and partial downloads stay under the SDK's data directory; cached
/// (not pinned) files live apart, in ``cacheDirectory``. On Apple platforms that is under the
/// system's caches directory, which the system may empty when storage runs low: a cached file
/// that disappeared is simply no longer downloaded, and the next request fetches it again.
public struct DownloadLocations: Sendable, Equatable {
    /// `<data dir>/downloads/<tenant>/<user>/`: pinned files in `files/`, partial ones in
    /// `partial/`. (What is downloaded is recorded in the user's ``OfflineStore``.)
    public var directory: URL
    /// Where cached (not pinned) files live.
    public var cacheDirectory: URL

    /// Explicit locations; `cacheDirectory` defaults to `directory/cache/`.
    public init(directory: URL, cacheDirectory: URL? = nil) {
        self.directory = directory
        self.cacheDirectory = cacheDirectory ?? directory.appendingPathComponent("cache", isDirectory: true)
    }

    /// A user's locations under the SDK's data directory: on Apple platforms cached files go under
    /// the caches directory (`Caches/edugo-downloads/<tenant>/<user>/`), elsewhere beside the pinned
    /// ones.
    public init(dataDirectory: URL, tenantID: String, userID: String) {
        let user = OfflineStore.safe(tenantID) + "/" + OfflineStore.safe(userID)
        let directory = dataDirectory.appendingPathComponent("downloads/" + user, isDirectory: true)
        #if canImport(Darwin)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        self.init(
            directory: directory,
            cacheDirectory: caches?.appendingPathComponent("edugo-downloads/" + user, isDirectory: true))
        #else
        self.init(directory: directory)
        #endif
    }

    /// Where a complete file lives: `files/<lesson>` when pinned, `<cache directory>/<lesson>` when cached.
    func file(_ lessonID: String, pinned: Bool) -> URL {
        pinned
            ? directory.appendingPathComponent("files", isDirectory: true).appendingPathComponent(lessonID)
            : cacheDirectory.appendingPathComponent(lessonID)
    }

    /// Where a download in progress is written.
    func partial(_ lessonID: String) -> URL {
        directory.appendingPathComponent("partial", isDirectory: true).appendingPathComponent(lessonID + ".part")
    }

    /// Where an older SDK recorded what is downloaded; ``Downloads`` imports it into the store once.
    var legacyManifest: URL { directory.appendingPathComponent("manifest.json") }

    /// Creates the folders (the cache one too: the system may have emptied it since).
    func create() throws {
        for folder in [directory.appendingPathComponent("files"), directory.appendingPathComponent("partial"), cacheDirectory] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// Removes every file, pinned, cached or partial.
    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: cacheDirectory)
    }
}
