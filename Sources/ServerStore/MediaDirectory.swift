import Foundation

/// Where lesson media files live: `<data dir>/media/<tenant>/`, with uploads in progress under
/// `<data dir>/media/.incoming/` until they are complete, synced and renamed into place.
///
/// A file's name is `<lesson id>.<sha256>`: a lesson's new media never overwrites the file a
/// download in progress is reading, and the store removes the old one once the new one is
/// recorded. With in-memory storage the directory is a temporary one, made on the first upload and
/// removed at shutdown.
package struct MediaDirectory: Sendable {
    package let root: URL
    /// Whether the server made `root` for this run only (in-memory storage) and removes it at shutdown.
    package let isTemporary: Bool

    /// The media directory under `dataDirectory`, created (mode 0700) if needed; a temporary one
    /// when there is no data directory (in-memory storage).
    package init(dataDirectory: URL?) throws {
        switch dataDirectory {
        case .some(let url):
            root = url.appendingPathComponent("media", isDirectory: true)
            isTemporary = false
        case .none:
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("edugo-media-\(UUID().uuidString.lowercased())", isDirectory: true)
            isTemporary = true
        }
        guard !isTemporary else { return }  // made on the first upload: most in-memory servers never get one
        // What is left in `.incoming` was being received when the last run ended: never visible, now garbage.
        try? FileManager.default.removeItem(at: root.appendingPathComponent(".incoming", isDirectory: true))
        try FileManager.default.createDirectory(
            at: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Where uploads are written while they arrive.
    package var incoming: URL { root.appendingPathComponent(".incoming", isDirectory: true) }

    /// A fresh path for an upload in progress (creating the staging directory if needed).
    package func stagingFile() throws -> URL {
        try FileManager.default.createDirectory(
            at: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return incoming.appendingPathComponent(UUID().uuidString.lowercased() + ".part")
    }

    /// The directory of `tenant`'s files.
    package func directory(of tenant: TenantID) -> URL {
        root.appendingPathComponent(tenant.rawValue, isDirectory: true)
    }

    /// The file of a lesson's media with content `sha256`.
    package func file(tenant: TenantID, name: String) -> URL {
        directory(of: tenant).appendingPathComponent(name)
    }

    /// The file name of a lesson's media: `<lesson id>.<sha256>`.
    package static func fileName(lessonID: String, sha256: String) -> String {
        "\(lessonID).\(sha256)"
    }

    /// Moves a complete, synced upload into `tenant`'s directory under `name` (atomic `rename(2)`).
    package func publish(_ staged: URL, tenant: TenantID, name: String) throws {
        let directory = directory(of: tenant)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = file(tenant: tenant, name: name)
        guard rename(staged.path, target.path) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Removes a file if it exists (a replaced or deleted lesson's media, an abandoned upload).
    package func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names of `tenant`'s files.
    package func fileNames(of tenant: TenantID) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory(of: tenant).path)) ?? []
    }

    /// Removes the whole directory when the server made it for this run (in-memory storage).
    package func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(at: root) }
    }
}
