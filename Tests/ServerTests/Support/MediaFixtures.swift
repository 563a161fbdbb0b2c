import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting

@testable import EduGoServer

// Helpers for the lesson media suite: generated files, uploads, and a look at the media directory.

/// Generated file contents, deterministic for a seed, carrying a real signature.
enum MediaFixture {
    /// `count` bytes starting with `%PDF-1.7\n`, the rest pseudo-random (xorshift).
    static func pdf(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        let header = Array("%PDF-1.7\n".utf8)
        var state = seed | 1
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for index in words.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[index] = state
        }
        var bytes = words.withUnsafeBytes { Array($0.prefix(count)) }
        for index in 0..<min(header.count, count) { bytes[index] = header[index] }
        return bytes
    }

    /// A PNG signature followed by `count - 8` zero bytes.
    static func png(_ count: Int = 64) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: max(0, count - 8))
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}

/// The `media` member of a lesson, decoded independently of the server's types.
struct LessonMediaBody: Decodable, Equatable {
    var contentType: String
    var sizeBytes: Int
    var sha256: String
    var updatedAt: String
}

/// A lesson with its optional `media` member.
struct LessonWithMediaBody: Decodable {
    var id: String
    var version: Int
    var media: LessonMediaBody?
}

extension TestClientProtocol {
    func mediaPath(_ courseID: String, _ lessonID: String) -> String {
        "/v1/courses/\(courseID)/lessons/\(lessonID)/media"
    }

    /// `PUT .../media` with `bytes` as the body.
    func uploadMedia(
        _ bytes: [UInt8], course courseID: String, lesson lessonID: String, as caller: Caller,
        contentType: String? = "application/pdf", ifMatch version: Int? = 1
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(caller.token)"
        if let contentType { headers[.contentType] = contentType }
        if let version { headers[.ifMatch] = "\"\(version)\"" }
        return try await execute(
            uri: mediaPath(courseID, lessonID), method: .put, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    /// Uploads and expects 200; returns the lesson.
    @discardableResult
    func expectUpload(
        _ bytes: [UInt8], course courseID: String, lesson lessonID: String, as caller: Caller, ifMatch version: Int = 1
    ) async throws -> LessonWithMediaBody {
        let response = try await uploadMedia(bytes, course: courseID, lesson: lessonID, as: caller, ifMatch: version)
        return try expectOK(LessonWithMediaBody.self, response, "media upload")
    }

    func downloadMedia(
        course courseID: String, lesson lessonID: String, as caller: Caller, headers: HTTPFields = [:],
        method: HTTPRequest.Method = .get
    ) async throws -> TestResponse {
        try await send(method, mediaPath(courseID, lessonID), bearer: caller.token, headers: headers)
    }
}

extension TestResponse {
    /// The raw body bytes (``text`` would mangle binary content).
    var bytes: [UInt8] { Array(body.readableBytesView) }
}

/// Every regular file under `<data dir>/media`, staging area included, as relative paths.
func mediaFiles(in dataDirectory: URL) -> [String] {
    let root = dataDirectory.appendingPathComponent("media")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            files.append(path)
        }
    }
    return files.sorted()
}

/// A seeded, in-process server whose data (and media) live in a temporary directory the test can look at.
func withMediaServer<Value: Sendable>(
    maxMediaSize: Int? = nil,
    _ test: @Sendable (any TestClientProtocol, URL) async throws -> Value
) async throws -> Value {
    try await withTemporaryDirectory { directory in
        var configuration = ServerConfiguration.testing()
        configuration.storage = .directory(directory)
        if let maxMediaSize { configuration.maxMediaSize = maxMediaSize }
        return try await withServer(configuration) { client in try await test(client, directory) }
    }
}
