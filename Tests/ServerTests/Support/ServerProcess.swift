import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Text a child process wrote, collected off its pipe.
final class ProcessOutput: Sendable {
    private let text = Mutex("")
    private let ended = Mutex(false)

    func append(_ data: Data) {
        let chunk = String(decoding: data, as: UTF8.self)
        text.withLock { $0 += chunk }
    }

    /// Called when the writing end closed: everything it wrote was appended.
    func end() { ended.withLock { $0 = true } }

    /// Whether the writing end closed.
    var hasEnded: Bool { ended.withLock { $0 } }

    var value: String { text.withLock { $0 } }

    /// The `http://127.0.0.1:<port>` (or `https://`) the server announced, once it has (a server
    /// announcing `0.0.0.0` is reached over 127.0.0.1).
    var announcedURL: URL? {
        guard let range = value.range(of: #"https?://(127\.0\.0\.1|0\.0\.0\.0):[0-9]+"#, options: .regularExpression)
        else {
            return nil
        }
        return URL(string: String(value[range]).replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1"))
    }
}

/// A real `edugo-server` process on an ephemeral port.
///
/// Every wait is bounded; ``stop()`` and ``kill()`` are safe to call on a process that is
/// already gone, so callers can always clean up.
final class ServerProcess {
    /// The port in ``baseURL``.
    var port: Int { baseURL.port ?? 0 }

    static let timeout: Duration = .seconds(30)

    let process: Process
    let baseURL: URL
    let stdout: ProcessOutput
    let stderr: ProcessOutput

    private init(process: Process, baseURL: URL, stdout: ProcessOutput, stderr: ProcessOutput) {
        self.process = process
        self.baseURL = baseURL
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Starts the binary with `--port 0 --data-dir <dataDirectory>` (plus `arguments`) and waits
    /// for its banner.
    /// - Parameter fileLimit: When set, the server runs under `ulimit -n <fileLimit>`.
    static func launch(
        dataDirectory: URL, arguments: [String] = [], environment: [String: String]? = nil, fileLimit: Int? = nil
    ) async throws -> ServerProcess {
        let process = Process()
        let serverArguments = ["--port", "0", "--data-dir", dataDirectory.path, "--log-level", "warning"] + arguments
        if let fileLimit {
            // `exec` keeps the pid, so stop() and kill() still reach the server itself.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", try executable().path] + serverArguments
        } else {
            process.executableURL = try executable()
            process.arguments = serverArguments
        }
        if let environment { process.environment = environment }
        let stdout = ProcessOutput()
        let stderr = ProcessOutput()
        process.standardOutput = Self.pipe(into: stdout)
        process.standardError = Self.pipe(into: stderr)
        try process.run()

        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let url = stdout.announcedURL {
                return ServerProcess(process: process, baseURL: url, stdout: stdout, stderr: stderr)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        throw HelperFailure(
            description: "edugo-server did not announce its address within \(timeout).\n"
                + "stdout: \(stdout.value)\nstderr: \(stderr.value)")
    }

    /// Runs the binary with `arguments` and waits (bounded) for it to exit on its own, as a
    /// server that refuses to start does.
    /// - Returns: The exit status (`nil` if it had to be killed) and everything it wrote.
    static func runToExit(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let stdout = ProcessOutput()
        let stderr = ProcessOutput()
        process.standardOutput = Self.pipe(into: stdout)
        process.standardError = Self.pipe(into: stderr)
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (nil, stdout.value + stderr.value)
        }
        // Everything the process wrote, not what happened to arrive by now: a fixed wait for the
        // pipes lost the end of the output on a loaded machine ("Err" of "Error: Refusing…").
        let drained = ContinuousClock.now + timeout
        while !(stdout.hasEnded && stderr.hasEnded), ContinuousClock.now < drained {
            try await Task.sleep(for: .milliseconds(10))
        }
        return (process.terminationStatus, stdout.value + stderr.value)
    }

    /// The CPU time (user and system) the process has used so far, from `/proc/<pid>/stat`;
    /// `nil` where there is no `/proc`.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// SIGTERM, then waits for the exit; falls back to SIGKILL after the timeout.
    /// - Returns: Whether the process exited on its own with status 0.
    @discardableResult
    func stop() async -> Bool {
        guard process.isRunning else { return exitedCleanly }
        process.terminate()
        if await waitForExit() { return exitedCleanly }
        await kill()
        return false
    }

    /// SIGKILL: the process gets no chance to clean up.
    func kill() async {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        _ = await waitForExit()
    }

    var exitedCleanly: Bool {
        !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0
    }

    var killedBySignal: Bool {
        !process.isRunning && process.terminationReason == .uncaughtSignal
    }

    private func waitForExit() async -> Bool {
        let deadline = ContinuousClock.now + Self.timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !process.isRunning
    }

    private static func pipe(into output: ProcessOutput) -> Pipe {
        let pipe = Pipe()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                output.end()
            } else {
                output.append(data)
            }
        }
        return pipe
    }

    /// The `edugo-server` built next to the test bundle.
    ///
    /// On Linux the test runner is `.build/<triple>/debug/EduGoPackageTests.xctest`, a plain
    /// executable beside `edugo-server`; on macOS the `.xctest` bundle sits there. The package's
    /// `.build/debug` is the last resort; `EDUGO_SERVER_BINARY` overrides everything.
    static func executable() throws -> URL {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["EDUGO_SERVER_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        directories += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        directories.append(Bundle.main.bundleURL)
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in directories {
            let candidate = directory.appendingPathComponent("edugo-server")
            if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HelperFailure(
            description: "edugo-server not found in \(directories.map(\.path)); run `swift build --build-tests` first")
    }
}

/// A small HTTP client for the live server.
struct LiveClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try TestJSON.decoder.decode(T.self, from: body)
        }
    }

    let baseURL: URL
    let session: URLSession

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 30
        self.session = URLSession(configuration: configuration)
    }

    func send(
        _ method: String, _ pathAndQuery: String, tenant: String? = nil, bearer: String? = nil, json: String? = nil
    ) async throws -> Response {
        guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
            throw HelperFailure(description: "bad URL \(pathAndQuery)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let tenant { request.setValue(tenant, forHTTPHeaderField: "X-Tenant-ID") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw HelperFailure(description: "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: headers, body: data)
    }

    func register(_ account: Credentials) async throws -> Response {
        try await send(
            "POST", "/v1/auth/register", tenant: account.tenant,
            json: TestJSON.body([
                "email": account.email, "password": account.password, "first_name": "Ana", "last_name": "García",
            ]))
    }

    func login(_ account: Credentials) async throws -> Response {
        try await send(
            "POST", "/v1/auth/login", tenant: account.tenant,
            json: TestJSON.body(["email": account.email, "password": account.password]))
    }

    func registerVerified(_ account: Credentials) async throws {
        let registered = try await register(account)
        guard registered.status == 202 else {
            throw HelperFailure(description: "register answered \(registered.status): \(registered.text)")
        }
        let query = account.email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? account.email
        let mailbox = try await send("GET", "/__dev/mailbox?email=\(query)", tenant: account.tenant)
        guard let token = try mailbox.decode(Mailbox.self).items.first(where: { $0.kind == "verify_email" })?.token
        else { throw HelperFailure(description: "no verification mail: \(mailbox.text)") }
        let verified = try await send(
            "POST", "/v1/auth/verify-email?token=\(token)", tenant: account.tenant)
        guard verified.status == 200 else {
            throw HelperFailure(description: "verify-email answered \(verified.status): \(verified.text)")
        }
    }
}
