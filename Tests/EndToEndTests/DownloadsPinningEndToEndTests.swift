import AsyncHTTPClient
import EduGoSDK
import EduGoTesting
import Foundation
import NIOCore
import NIOSSL
import Testing

/// Lesson downloads over TLS honour the client's certificate pinning: the right pin downloads, a
/// wrong one fails before any request reaches the server and never falls back to no pinning.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DownloadsPinningEndToEndTests {
    @Test("a wrong pin fails the download with pinningFailed (not waited on, the server never sees it); the right pin downloads the file")
    func mediaDownloadsArePinned() async throws {
        let file = generatedPDF(1 << 20, seed: 40)
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with(tls: true, { $0.seedDemoData = true }) { server in
                let tls = try #require(server.tls)
                let (course, lesson, _) = try await uploadOverTLS(file, to: server, trusting: tls.certificateChainDER)
                func client(pins: [String]) throws -> EduGoClient {
                    try pinnedClient(server, trusting: tls.certificateChainDER, pins: pins, directory: root)
                }
                // Given the student signed in with the right pin, then an app holding a wrong one
                let right = try client(pins: [tls.pin])
                let session = try await right.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let wrong = try client(pins: [unrelatedPin()])
                let wrongSession = try #require(try await wrong.resumeSession())
                let before = try await server.loggedRequests().first?.sequence ?? 0

                // When it downloads with the default media transport, Then the pin refuses it at once
                let refused = try wrong.downloads(for: wrongSession)
                await #expect(throws: DownloadError.untrustedServer(.pinningFailed(host: "127.0.0.1"))) {
                    try await refused.fetch(lessonID: lesson, courseID: course)
                }
                #expect(await refused.localFile(for: lesson) == nil)
                #expect(try await server.loggedRequests(after: before).isEmpty)

                // And with the right pin the same download succeeds, byte for byte
                let url = try await right.downloads(for: session).fetch(lessonID: lesson, courseID: course)
                #expect(sameBytes(try Data(contentsOf: url), file))
            }
        }
    }

    @Test("a wrong pin fails a media upload with pinningFailed before the server sees it; the right pin uploads")
    func mediaUploadsArePinned() async throws {
        let replacement = generatedPDF(512 << 10, seed: 42)
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with(tls: true, { $0.seedDemoData = true }) { server in
                let tls = try #require(server.tls)
                let (course, lesson, version) = try await uploadOverTLS(
                    generatedPDF(256 << 10, seed: 41), to: server, trusting: tls.certificateChainDER)
                let file = root.appendingPathComponent("replacement.pdf")
                try replacement.write(to: file)
                func client(pins: [String]) throws -> EduGoClient {
                    try pinnedClient(server, trusting: tls.certificateChainDER, pins: pins, directory: root)
                }
                // Given the teacher signed in with the right pin, then an app holding a wrong one
                let right = try client(pins: [tls.pin])
                _ = try await right.signIn(email: "teacher1@demo.edugo.dev", password: "Demo-Teacher-2026")
                let wrong = try client(pins: [unrelatedPin()])
                _ = try #require(try await wrong.resumeSession())
                let before = try await server.loggedRequests().first?.sequence ?? 0

                // When the wrong one uploads, Then the pin refuses it before any request reaches the server
                await #expect(throws: NetworkError.pinningFailed(host: "127.0.0.1")) {
                    try await LessonMediaUploader(api: wrong.api).upload(
                        file: file, courseID: course, lessonID: lesson, contentType: "application/pdf", baseVersion: version)
                }
                #expect(try await server.loggedRequests(after: before).isEmpty)

                // And the right pin uploads the file
                let media = try await LessonMediaUploader(api: right.api).upload(
                    file: file, courseID: course, lessonID: lesson, contentType: "application/pdf", baseVersion: version)
                #expect(media.sizeBytes == Int64(replacement.count))
                #expect(media.lessonVersion == version + 1)
            }
        }
    }

    /// A client of the TLS server trusting its development chain and holding `pins` for 127.0.0.1.
    private func pinnedClient(
        _ server: EduGoTestServer, trusting chain: [Data], pins: [String], directory: URL
    ) throws -> EduGoClient {
        EduGoClient(
            configuration: APIConfiguration(
                baseURL: server.baseURL, tenantID: "demo", retryPolicy: .none, readRefresh: patientReads,
                pinning: try CertificatePinning(pins: ["127.0.0.1": pins], trustRoots: chain)),
            dataDirectory: directory, environment: fastEnvironment)
    }

    /// Puts `file` on the first lesson of the demo Swift course as its teacher, over the server's
    /// TLS (trusting its development certificate); returns the course and lesson ids and the
    /// lesson's version after the upload.
    private func uploadOverTLS(
        _ file: Data, to server: EduGoTestServer, trusting chain: [Data]
    ) async throws -> (course: String, lesson: String, version: Int) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try chain.map { try NIOSSLCertificate(bytes: Array($0), format: .der) })
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(tlsConfiguration: tls))
        func call(_ method: String, _ path: String, headers: [String: String], body: Data? = nil) async throws -> [String: Any] {
            var request = HTTPClientRequest(url: server.baseURL.absoluteString + path)
            request.method = .init(rawValue: method)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let response = try await http.execute(request, timeout: .seconds(60))
            let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            guard (200..<300).contains(Int(response.status.code)) else {
                throw MediaFixtureError("\(method) \(path): \(response.status.code) \(String(decoding: data, as: UTF8.self))")
            }
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }
        do {
            let credentials = try JSONSerialization.data(
                withJSONObject: ["email": "teacher1@demo.edugo.dev", "password": "Demo-Teacher-2026"])
            let login = try await call(
                "POST", "/v1/auth/login", headers: ["X-Tenant-ID": "demo", "Content-Type": "application/json"], body: credentials)
            let token = try #require(login["access_token"] as? String)
            let auth = ["Authorization": "Bearer \(token)"]
            let courses = try await call("GET", "/v1/courses?limit=100", headers: auth)
            let items = try #require(courses["items"] as? [[String: Any]])
            let course = try #require(items.first { $0["title"] as? String == DownloadsEndToEndTests.swiftCourse }?["id"] as? String)
            let lessons = try await call("GET", "/v1/courses/\(course)/lessons", headers: auth)
            let first = try #require((lessons["items"] as? [[String: Any]])?.first)
            let lesson = try #require(first["id"] as? String)
            let version = try #require(first["version"] as? Int)
            var upload = auth
            upload["Content-Type"] = "application/pdf"
            upload["If-Match"] = "\"\(version)\""
            let uploaded = try await call("PUT", "/v1/courses/\(course)/lessons/\(lesson)/media", headers: upload, body: file)
            try await http.shutdown()
            return (course, lesson, try #require(uploaded["version"] as? Int))
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
