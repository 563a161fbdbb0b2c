import EduGoSDK
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A teacher's raw calls for putting lesson media on a test server (independent of the SDK).
struct MediaAuthor {
    let baseURL: URL
    let token: String

    static func signIn(_ baseURL: URL, email: String = "teacher1@demo.edugo.dev", password: String = "Demo-Teacher-2026")
        async throws -> MediaAuthor
    {
        let body = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        let object = try await call(baseURL, "POST", "/v1/auth/login", headers: ["X-Tenant-ID": "demo"], body: body)
        guard let token = object["access_token"] as? String else { throw MediaFixtureError("login: \(object)") }
        return MediaAuthor(baseURL: baseURL, token: token)
    }

    /// The id of the course titled `title` and its lessons' ids and versions, in order.
    func lessons(ofCourseTitled title: String) async throws -> (course: String, lessons: [(id: String, version: Int)]) {
        let page = try await Self.call(baseURL, "GET", "/v1/courses?limit=100", headers: auth)
        guard let items = page["items"] as? [[String: Any]],
            let course = items.first(where: { $0["title"] as? String == title })?["id"] as? String
        else { throw MediaFixtureError("no course \(title)") }
        let list = try await Self.call(baseURL, "GET", "/v1/courses/\(course)/lessons", headers: auth)
        let lessons = (list["items"] as? [[String: Any]] ?? []).compactMap { item -> (String, Int)? in
            guard let id = item["id"] as? String, let version = item["version"] as? Int else { return nil }
            return (id, version)
        }
        return (course, lessons)
    }

    /// Uploads `bytes` as a PDF; returns the lesson's new version.
    @discardableResult
    func upload(_ bytes: Data, course: String, lesson: String, version: Int) async throws -> Int {
        var headers = auth
        headers["Content-Type"] = "application/pdf"
        headers["If-Match"] = "\"\(version)\""
        let object = try await Self.call(baseURL, "PUT", "/v1/courses/\(course)/lessons/\(lesson)/media", headers: headers, body: bytes)
        guard let newVersion = object["version"] as? Int else { throw MediaFixtureError("upload: \(object)") }
        return newVersion
    }

    private var auth: [String: String] { ["Authorization": "Bearer \(token)"] }

    private static func call(
        _ baseURL: URL, _ method: String, _ path: String, headers: [String: String], body: Data? = nil
    ) async throws -> [String: Any] {
        guard let url = URL(string: baseURL.absoluteString + path) else { throw MediaFixtureError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            if headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
            throw MediaFixtureError("\(method) \(path): \(String(decoding: data, as: UTF8.self))")
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

struct MediaFixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Whether two files hold the same bytes. `#expect(a == b)` on files of megabytes would, when it
/// fails, have Swift Testing compute their difference byte by byte, which takes hours.
func sameBytes(_ a: Data, _ b: Data) -> Bool {
    a == b
}

/// `count` bytes of a PDF-signed file, pseudo-random after the signature.
func generatedPDF(_ count: Int, seed: UInt64) -> Data {
    var state = seed | 1
    var words = [UInt64](repeating: 0, count: (count + 7) / 8)
    for index in words.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        words[index] = state
    }
    var data = words.withUnsafeBytes { Data($0.prefix(count)) }
    data.replaceSubrange(0..<9, with: Array("%PDF-1.7\n".utf8))
    return data
}

/// A media transport over the real one that counts the body bytes it hands on, keeps every
/// request, and can drop the connection (throw `URLError(.networkConnectionLost)`) once a request
/// has received `cutAfter` bytes, or take the server away at that moment (``outage(after:_:)``).
final class CountingMediaTransport: MediaTransport {
    private let inner = AsyncHTTPClientMediaTransport()
    private let state = Mutex<(bytes: Int, requests: [MediaRequest], cutAfter: Int?)>((0, [], nil))
    /// What ``outage(after:_:)`` does when the cut comes, and the task doing it once it started.
    private let outageState = Mutex<(action: (@Sendable () async -> Void)?, running: Task<Void, Never>?)>((nil, nil))

    init(cutAfter: Int? = nil) {
        state.withLock { $0.cutAfter = cutAfter }
    }

    /// Body bytes received over every request.
    var bytes: Int { state.withLock { $0.bytes } }
    var requests: [MediaRequest] { state.withLock { $0.requests } }

    /// Drops the connection of the next request that reaches `bytes` (once).
    func cut(after bytes: Int?) { state.withLock { $0.cutAfter = bytes } }

    /// Drops the connection of the next request that reaches `bytes` and runs `action` (stopping
    /// the server, say) as it does; later requests are sent only once `action` has finished.
    func outage(after bytes: Int, _ action: @escaping @Sendable () async -> Void) {
        outageState.withLock { $0.action = action }
        cut(after: bytes)
    }

    /// Returns once the outage's action has finished (at once when none started).
    func outageFinished() async {
        await outageState.withLock { $0.running }?.value
    }

    func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws {
        await outageFinished()
        state.withLock { $0.requests.append(request) }
        var received = 0
        try await inner.fetch(request, onHead: onHead) { chunk in
            received += chunk.count
            let cut = self.state.withLock { state -> Bool in
                state.bytes += chunk.count
                guard let limit = state.cutAfter, received >= limit else { return false }
                state.cutAfter = nil
                return true
            }
            try await onChunk(chunk)
            if cut {
                self.outageState.withLock { outage in
                    guard let action = outage.action else { return }
                    outage.action = nil
                    outage.running = Task { await action() }
                }
                throw URLError(.networkConnectionLost)
            }
        }
    }
}
