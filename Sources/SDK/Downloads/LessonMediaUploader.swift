import Foundation

#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import NIOCore
#else
import Logging
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A lesson's media as the server recorded it after an upload.
public struct UploadedMedia: Sendable, Equatable {
    /// The lesson's new version.
    public var lessonVersion: Int
    /// The media type the server stored, such as `video/mp4`.
    public var contentType: String
    /// The file's size in bytes, as the server received it.
    public var sizeBytes: Int64
    /// Lowercase hex SHA-256 of the file, as the server computed it.
    public var sha256: String
}

/// Uploads a file as a lesson's media (the course's teacher or an admin), streamed from disk: the
/// file is never held in memory.
///
/// The upload honours the API client's ``CertificatePinning`` as its requests do: a refused pin or
/// certificate fails it with ``NetworkError/pinningFailed(host:)`` or
/// ``NetworkError/untrustedCertificate(host:)`` before any byte of the file is sent. On Linux it
/// goes over the API client's own AsyncHTTPClient connections: uploaders of one client share them.
///
/// ```swift
/// let media = try await LessonMediaUploader(api: edugo.api).upload(
///     file: url, courseID: course, lessonID: lesson, contentType: "video/mp4", baseVersion: lesson.version)
/// ```
public struct LessonMediaUploader: Sendable {
    private let api: APIClient

    /// Creates an uploader that uses `api`'s server, session tokens and certificate pinning.
    public init(api: APIClient) {
        self.api = api
    }

    /// The media types the server accepts, by file extension.
    public static func contentType(forExtension pathExtension: String) -> String? {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": "video/mp4"
        case "mp3": "audio/mpeg"
        case "pdf": "application/pdf"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        default: nil
        }
    }

    /// Uploads `file` as the lesson's media, replacing any earlier one.
    ///
    /// - Parameters:
    ///   - baseVersion: The lesson's version the upload is based on (`If-Match`); a stale one is
    ///     refused with ``NetworkError/conflict(currentVersion:current:)``.
    ///   - progress: Told the bytes sent so far and the file's size.
    /// - Throws: ``NetworkError`` for the server's refusals (413, 415, 403, 404, 412) or the transport's failure.
    public func upload(
        file: URL, courseID: String, lessonID: String, contentType: String, baseVersion: Int,
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws -> UploadedMedia {
        try Downloads.checkIdentifier(courseID)
        try Downloads.checkIdentifier(lessonID)
        let size = Downloads.fileSize(file)
        let url = api.configuration.baseURL.appendingPathComponent("v1/courses/\(courseID)/lessons/\(lessonID)/media")
        var token = try await api.session.validAccessToken()
        var response = try await send(file: file, size: size, to: url, token: token, contentType: contentType, version: baseVersion, progress: progress)
        if response.statusCode == 401 {
            token = try await api.session.accessTokenAfterUnauthorized(failedToken: token)
            response = try await send(file: file, size: size, to: url, token: token, contentType: contentType, version: baseVersion, progress: progress)
        }
        guard (200..<300).contains(response.statusCode) else { throw NetworkError.from(response: response) }
        struct Body: Decodable {
            struct Media: Decodable {
                var contentType: String
                var sizeBytes: Int64
                var sha256: String
            }
            var version: Int
            var media: Media
        }
        do {
            let body = try JSONCoding.decoder.decode(Body.self, from: response.body)
            return UploadedMedia(
                lessonVersion: body.version, contentType: body.media.contentType, sizeBytes: body.media.sizeBytes,
                sha256: body.media.sha256)
        } catch {
            throw NetworkError.decodingError(String(describing: error))
        }
    }

    private func send(
        file: URL, size: Int64, to url: URL, token: String, contentType: String, version: Int,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) async throws -> APIResponse {
        let headers = [
            "Authorization": "Bearer \(token)", "Content-Type": contentType, "If-Match": "\"\(version)\"",
            "Accept": "application/json",
        ]
        #if canImport(AsyncHTTPClient)
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .stream(FileChunks(file: file, size: size, progress: progress), length: .known(size))
        // The API client's own connections, which check its pins (when it has any) first.
        let (client, host) = try api.streaming.clients().client(for: url)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .hours(24))
        } catch {
            throw AsyncHTTPClientTransport.classify(error, host: host)
        }
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name] = value }
        let body = try await response.body.collect(upTo: 1 << 20)
        return APIResponse(statusCode: Int(response.status.code), headers: fields, body: Data(body.readableBytesView))
        #else
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await upload(request, fromFile: file)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        progress(size, size)
        return APIResponse(statusCode: http.statusCode, headers: fields, body: data)
        #endif
    }

    #if !canImport(AsyncHTTPClient)
    /// `URLSession`'s upload, through a ``PinningTaskDelegate`` when the configuration pins.
    private func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, URLResponse) {
        #if canImport(Security) && !canImport(FoundationNetworking)
        let pinning = api.configuration.pinning
        if pinning.isEnabled {
            let delegate = PinningTaskDelegate(pinning: pinning, logger: Logger(label: "edugo.sdk.tls"))
            do {
                return try await URLSession.shared.upload(for: request, fromFile: file, delegate: delegate)
            } catch {
                throw delegate.refusal ?? error
            }
        }
        #endif
        return try await URLSession.shared.upload(for: request, fromFile: file)
    }
    #endif
}

#if canImport(AsyncHTTPClient)
/// A file read 256 KiB at a time as the request body asks for it.
private struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let file: URL
    let size: Int64
    let progress: @Sendable (Int64, Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: URL
        let size: Int64
        let progress: @Sendable (Int64, Int64) -> Void
        var handle: FileHandle?
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            if handle == nil { handle = try FileHandle(forReadingFrom: file) }
            guard let handle, let chunk = try handle.read(upToCount: 256 << 10), !chunk.isEmpty else {
                try handle?.close()
                return nil
            }
            sent += Int64(chunk.count)
            progress(sent, size)
            return ByteBuffer(bytes: chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(file: file, size: size, progress: progress)
    }
}
#endif
