import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default transport (AsyncHTTPClient on Linux) neither stalls, re-sends blindly nor freezes:
/// a write after the server closed the kept-alive connection goes out once and at once, an
/// untrusted certificate fails at once, and cancelling a download that waits for the network never
/// deadlocks.
@Suite(.timeLimit(.minutes(3))) struct LinuxTransportEndToEndTests {
    @Test("a write sent after the server closed the kept-alive connection completes in under a second and is applied once")
    func writeAfterIdleCloseIsPromptAndSingle() async throws {
        try await EduGoTestServer.with({ $0.connections.idleTimeout = .milliseconds(200) }) { server in
            // Given a teacher's client whose kept-alive connection the server closed as idle
            let teacher = server.account(.teacher)
            let client = APIClient(configuration: APIConfiguration(
                baseURL: server.baseURL, tenantID: server.tenantID, timeout: .seconds(10), retryPolicy: .none))
            _ = try await AuthService(client: client).login(email: teacher.email, password: teacher.password)
            let _: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 1))
            try await Task.sleep(for: .seconds(1))

            // When the teacher creates a course (a POST with a body, no idempotency key)
            let title = "Reenvio \(UUID().uuidString.prefix(8))"
            let start = ContinuousClock.now
            let created: Course = try await client.execute(
                endpoint: .Courses.create,
                body: ["title": .string(title), "category": "science", "published": true] as [String: AnyCodableValue])
            let elapsed = ContinuousClock.now - start

            // Then it completed in under a second, and the server holds exactly one such course
            #expect(elapsed < .seconds(1), "the write took \(elapsed)")
            #expect(created.title == title)
            var titles: [String] = []
            var after: String?
            repeat {
                let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 100, after: after))
                titles += page.items.map(\.title)
                after = page.next
            } while after != nil
            #expect(titles.filter { $0 == title }.count == 1)
        }
    }

    @Test("an untrusted certificate fails API calls and downloads in under a second, without pinning")
    func untrustedCertificateFailsAtOnce() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with(tls: true) { server in
                let tls = try #require(server.tls)
                // Given a client with ordinary TLS (no pins, the system's roots) facing a self-signed certificate
                let plain = APIClient(configuration: APIConfiguration(
                    baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: .none))

                // When it signs in, it fails at once with untrustedCertificate
                let student = server.account(.student)
                let start = ContinuousClock.now
                let call = await outcome(within: .seconds(10)) {
                    _ = try await AuthService(client: plain).login(email: student.email, password: student.password)
                }
                #expect(ContinuousClock.now - start < .seconds(1))
                #expect(throws: NetworkError.untrustedCertificate(host: "127.0.0.1")) { try #require(call).get() }

                // And a download over the default media transport fails at once too, untrusted
                let signedIn = try pinnedClient(server, pins: [tls.pin])
                try await signInStudent(signedIn, on: server)
                let downloads = try Downloads(
                    store: .inMemory(tenantID: server.tenantID, userID: "student"), directory: root.appendingPathComponent("downloads"),
                    baseURL: server.baseURL, session: signedIn.session)
                let downloadStart = ContinuousClock.now
                let download = await outcome(within: .seconds(10)) {
                    try await downloads.fetch(lessonID: "lesson", courseID: "course")
                }
                #expect(ContinuousClock.now - downloadStart < .seconds(1))
                #expect(throws: DownloadError.untrustedServer(.untrustedCertificate(host: "127.0.0.1"))) {
                    try #require(download).get()
                }
            }
        }
    }

    @Test("cancelling a download that waits for the network, 200 times in a row, never freezes")
    func cancellingWaitingDownloadsNeverFreezes() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with { server in
                // Given downloads whose server refuses connections, and a monitor whose health probe
                // reaches a server that accepts connections but never answers (a probe in flight)
                let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID))
                try await signInStudent(client, on: server)
                let silent = try SilentListener()
                let refused = try refusedPort()
                let monitor = ConnectivityMonitor(baseURL: try #require(URL(string: "http://127.0.0.1:\(silent.port)")))
                let downloads = try Downloads(
                    store: .inMemory(tenantID: server.tenantID, userID: "student"), directory: root.appendingPathComponent("downloads"),
                    baseURL: try #require(URL(string: "http://127.0.0.1:\(refused)")), session: client.session,
                    monitor: monitor, resumeLimit: 1_000)

                for round in 0..<200 {
                    // When a download starts waiting for the network and is cancelled
                    let waiting = Mutex(false)
                    let task = Task {
                        try await downloads.fetch(lessonID: "lesson", courseID: "course") { progress in
                            if progress.state == .waitingForNetwork { waiting.withLock { $0 = true } }
                        }
                    }
                    #expect(try await eventually(timeout: .seconds(10)) { waiting.withLock { $0 } }, "round \(round)")
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                    task.cancel()

                    // Then it ends, with CancellationError, within seconds
                    let ended = await outcome(within: .seconds(10)) { try await task.value }
                    let result = try #require(ended, "round \(round) did not end")
                    #expect(throws: CancellationError.self, "round \(round)") { try result.get() }
                }
            }
        }
    }
}

/// `operation`'s result, or `nil` when it has not ended within `limit` (it is cancelled then, and
/// left to end in the background): a wait that cannot hang the test.
private func outcome<Value: Sendable>(
    within limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error>? {
    let task = Task { try await operation() }
    let result = Mutex<Result<Value, any Error>?>(nil)
    let watcher = Task {
        let value = await task.result
        result.withLock { $0 = value }
    }
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if let value = result.withLock({ $0 }) { return value }
        try? await Task.sleep(for: .milliseconds(5))
    }
    task.cancel()
    _ = watcher
    return result.withLock { $0 }
}

/// A loopback TCP port that accepts connections (the kernel completes the handshake) and never
/// reads or answers them: a request to it waits until it is cancelled or times out.
private final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try boundSocket()
        guard listen(descriptor, 1024) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
    }

    deinit { close(descriptor) }
}

/// A loopback port nothing listens on: connections to it are refused.
private func refusedPort() throws -> Int {
    let (descriptor, port) = try boundSocket()
    close(descriptor)
    return port
}

/// A TCP socket bound to a free loopback port, and the port.
private func boundSocket() throws -> (Int32, Int) {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
        }
    }
    guard bound else {
        close(descriptor)
        throw POSIXError(.EADDRINUSE)
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}
