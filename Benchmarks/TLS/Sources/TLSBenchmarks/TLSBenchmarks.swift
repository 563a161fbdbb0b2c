import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation

/// HTTPS against plain HTTP on the same server code, and the SDK's round trip through
/// AsyncHTTPClient against URLSession. Prints Markdown; `Benchmarks/run-tls` writes it to
/// BENCHMARKS-TLS.md.
///
/// Usage: TLSBenchmarks [--runs N] [--requests N] [--duration SECONDS]
@main
struct TLSBenchmarks {
    static func main() async throws {
        let arguments = CommandLine.arguments
        func value(_ flag: String, _ fallback: Int) -> Int {
            arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
        }
        let runs = value("--runs", 5)
        let requests = value("--requests", 300)
        let duration = value("--duration", 5)

        let plain = try await EduGoTestServer.start()
        let secure = try await EduGoTestServer.start(tls: true)
        let tls = try secure.tls.orThrow("no TLS identity")
        let pinning = try CertificatePinning(pins: ["127.0.0.1": [tls.pin]], trustRoots: tls.certificateChainDER)

        // 1. Server: authenticated course list under wrk, plain and HTTPS (keep-alive) alternating.
        let plainToken = try await accessToken(plain, transport: URLSessionTransport())
        let secureToken = try await accessToken(secure, transport: try AsyncHTTPClientTransport(pinning: pinning))
        var plainRPS: [Double] = [], secureRPS: [Double] = [], plainP99: [Double] = [], secureP99: [Double] = []
        for _ in 0..<runs {
            let a = try wrk(url: plain.baseURL.absoluteString + "/v1/courses?limit=20", token: plainToken, seconds: duration)
            let b = try wrk(url: secure.baseURL.absoluteString + "/v1/courses?limit=20", token: secureToken, seconds: duration)
            plainRPS.append(a.rps); plainP99.append(a.p99)
            secureRPS.append(b.rps); secureP99.append(b.p99)
        }
        let ratios = zip(secureRPS, plainRPS).map { $0 / $1 }

        // 2. SDK: sequential round trips (sign-in once, then `requests` course-list calls).
        var rows: [(String, [Double])] = []
        let cases: [(String, URL, () throws -> any HTTPTransport)] = [
            ("URLSession (FoundationNetworking), HTTP", plain.baseURL, { URLSessionTransport() }),
            ("AsyncHTTPClientTransport, HTTP", plain.baseURL, { try AsyncHTTPClientTransport() }),
            ("AsyncHTTPClientTransport, HTTPS + pin (HTTP/2)", secure.baseURL, { try AsyncHTTPClientTransport(pinning: pinning) }),
            ("AsyncHTTPClientTransport, HTTPS + pin (HTTP/1.1)", secure.baseURL, { try AsyncHTTPClientTransport(pinning: pinning, http2: false) }),
        ]
        var samples = Array(repeating: [Double](), count: cases.count)
        for _ in 0..<runs {
            for (index, (_, url, make)) in cases.enumerated() {
                let server = url == plain.baseURL ? plain : secure
                samples[index].append(try await roundTrip(server, transport: try make(), pinning: url == plain.baseURL ? .disabled : pinning, requests: requests))
            }
        }
        for (index, (name, _, _)) in cases.enumerated() { rows.append((name, samples[index])) }

        print("## HTTPS against plain HTTP (server)")
        print()
        print("wrk (2 threads, 64 keep-alive connections, \(duration) s per run) on the authenticated")
        print("`GET /v1/courses?limit=20` of two in-process dev-mode servers built the same way, one plain and one")
        print("HTTPS (`--tls-dev` certificate, P-256; HTTP/1.1, since wrk does not speak HTTP/2), runs")
        print("alternating plain / HTTPS, \(runs) rounds. The load generator shares the two cores with the servers.")
        print()
        print("| load | req/s median (min–max) | p99 ms median |")
        print("|---|---:|---:|")
        print("| plain HTTP | \(format(plainRPS)) | \(String(format: "%.2f", median(plainP99))) |")
        print("| HTTPS (keep-alive) | \(format(secureRPS)) | \(String(format: "%.2f", median(secureP99))) |")
        print()
        print("| ratio | value (min–max) | target |")
        print("|---|---:|---|")
        print("| HTTPS ÷ HTTP (req/s, per round) | \(String(format: "%.2f", median(ratios))) (\(String(format: "%.2f", ratios.min() ?? .nan))–\(String(format: "%.2f", ratios.max() ?? .nan))) | ≥ 0.7 |")
        print()
        print("## SDK round trip: AsyncHTTPClient against URLSession on Linux")
        print()
        print("One `APIClient` per run signs in, then makes \(requests) sequential `GET /v1/courses?limit=20` calls")
        print("(decoded); the figure is the mean time per call in that run. Same process, same servers, runs alternate.")
        print()
        print("| transport | ms per call, median (min–max) |")
        print("|---|---:|")
        for (name, values) in rows {
            print("| \(name) | \(String(format: "%.3f", median(values))) (\(String(format: "%.3f", values.min() ?? .nan))–\(String(format: "%.3f", values.max() ?? .nan))) |")
        }
        await plain.shutdown()
        await secure.shutdown()
    }

    static func accessToken(_ server: EduGoTestServer, transport: any HTTPTransport) async throws -> String {
        let store = InMemoryTokenStore()
        let client = APIClient(
            configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID), transport: transport,
            tokenStore: store)
        let student = server.account(.student)
        _ = try await AuthService(client: client).login(email: student.email, password: student.password)
        return try await client.session.currentTokens().orThrow("no tokens").accessToken
    }

    /// Mean milliseconds per course-list call over `requests` sequential calls.
    static func roundTrip(
        _ server: EduGoTestServer, transport: any HTTPTransport, pinning: CertificatePinning, requests: Int
    ) async throws -> Double {
        let client = APIClient(
            configuration: APIConfiguration(baseURL: server.baseURL, tenantID: server.tenantID, pinning: pinning),
            transport: transport)
        let student = server.account(.student)
        _ = try await AuthService(client: client).login(email: student.email, password: student.password)
        let _: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 20))  // warm the connection
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<requests {
            let _: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 20))
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds * 1000 / Double(requests)
    }

    /// Runs wrk and returns requests per second and p99 in milliseconds.
    static func wrk(url: String, token: String, seconds: Int) throws -> (rps: Double, p99: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wrk", "-t2", "-c64", "-d\(seconds)s", "--latency", "-H", "Authorization: Bearer \(token)", url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rps = Double.nan, p99 = Double.nan
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rps = Double(fields[1]) ?? .nan }
            if fields.first == "99%", fields.count > 1 { p99 = milliseconds(String(fields[1])) }
        }
        guard rps.isFinite else { throw BenchmarkError("wrk failed: \(output)") }
        return (rps, p99)
    }

    static func milliseconds(_ text: String) -> Double {
        for (suffix, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
            return (Double(text.dropLast(suffix.count)) ?? .nan) * factor
        }
        return .nan
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ values: [Double]) -> String {
        String(format: "%.0f (%.0f–%.0f)", median(values), values.min() ?? .nan, values.max() ?? .nan)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Optional {
    func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw BenchmarkError(message) }
        return self
    }
}
