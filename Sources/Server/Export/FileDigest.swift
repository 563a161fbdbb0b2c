import Crypto
import Foundation

/// A file's SHA-256 and size, computed while it is read (and, for a copy, written).
struct FileDigest: Equatable {
    /// Lowercase hex SHA-256.
    var sha256: String
    var bytes: Int

    private static let chunkSize = 1 << 20

    /// The digest of the file at `url`.
    static func of(_ url: URL) throws -> FileDigest {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var hasher = SHA256()
        var bytes = 0
        while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
            hasher.update(data: chunk)
            bytes += chunk.count
        }
        return FileDigest(sha256: hasher.finalize().hexDigits, bytes: bytes)
    }

    /// Copies `source` to a new file `destination` (mode 0600, synced to disk) and returns the
    /// digest of what was copied.
    static func copy(_ source: URL, to destination: URL) throws -> FileDigest {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw DataTransferError.io(path: destination.path, reason: "cannot be created")
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var hasher = SHA256()
        var bytes = 0
        while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
            hasher.update(data: chunk)
            try output.write(contentsOf: chunk)
            bytes += chunk.count
        }
        try output.synchronize()
        return FileDigest(sha256: hasher.finalize().hexDigits, bytes: bytes)
    }
}
