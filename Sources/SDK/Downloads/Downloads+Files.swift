import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where files live, identifiers, sizes and digests.
extension Downloads {
    /// Where a record's complete file lives (pinned or cached).
    nonisolated func fileURL(_ record: DownloadRecord) -> URL {
        locations.file(record.lessonID, pinned: record.pinned)
    }

    static func exists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }

    nonisolated func mediaURL(courseID: String, lessonID: String) throws -> URL {
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
