import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct SecurityGuardTests {
    @Test(
        "plain HTTP is allowed to loopback hosts",
        arguments: ["http://127.0.0.1:8080", "http://127.0.0.53", "http://localhost:8080", "http://LOCALHOST", "http://[::1]:8080"])
    func loopbackAllowed(base: String) async throws {
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(transport: transport, baseURL: try #require(URL(string: base)))
        let response = try await client.send(endpoint: .health)
        #expect(response.statusCode == 200)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "plain HTTP to any other host is refused before the transport is called",
        arguments: ["http://api.edugo.dev", "http://10.0.0.7:8080", "http://127.evil.example", "http://localhost.evil.example",
                    "http://[::2]", "http://1270.0.0.1", "http://127.0.0.+1", "http://127.0.0.256"])
    func remoteHTTPRefused(base: String) async throws {
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(transport: transport, baseURL: try #require(URL(string: base)))
        await #expect {
            try await client.send(endpoint: .Courses.list())
        } throws: { error in
            if case .securityError = error as? NetworkError { true } else { false }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("a refused request is not retried")
    func refusalNotRetried() async throws {
        let environment = TestEnvironment()
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(
            transport: transport, environment: environment, retryPolicy: .aggressive, baseURL: URL(string: "http://api.edugo.dev")!)
        _ = try? await client.send(endpoint: .Courses.list())
        #expect(environment.sleeps.isEmpty)
    }

    @Test("HTTPS is allowed to any host")
    func httpsAllowed() async throws {
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(transport: transport, baseURL: URL(string: "https://api.edugo.dev")!)
        #expect(try await client.send(endpoint: .health).statusCode == 200)
    }

    @Test("other schemes are refused", arguments: ["ftp://127.0.0.1", "ws://localhost", "file:///tmp/x"])
    func otherSchemes(url: String) throws {
        #expect(!SecurityGuardInterceptor.isAllowed(try #require(URL(string: url))))
    }

    /// Runs one request through a guard whose reporter records what it is told.
    func reported(answer: APIResponse) async throws -> [[String]] {
        let reports = Locked<[[String]]>([])
        let guardInterceptor = SecurityGuardInterceptor(reporter: { missing, _ in reports.withLock { $0.append(missing) } })
        let chain = InterceptorChain(interceptors: [guardInterceptor], transport: StubTransport(always: answer))
        _ = try await chain.send(Fixture.request())
        return reports.value
    }

    @Test("a response without X-Content-Type-Options and X-Frame-Options is reported")
    func missingHeadersReported() async throws {
        let bare = APIResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(try await reported(answer: bare) == [["X-Content-Type-Options", "X-Frame-Options"]])
    }

    @Test("a response missing one security header reports just that one, matching names case-insensitively")
    func oneHeaderMissing() async throws {
        let partial = APIResponse(statusCode: 404, headers: ["x-content-type-options": "nosniff"], body: Data())
        #expect(try await reported(answer: partial) == [["X-Frame-Options"]])
    }

    @Test("a response with both security headers is not reported")
    func completeHeadersNotReported() async throws {
        #expect(try await reported(answer: .ok).isEmpty)
    }

    @Test("the default reporter logs a warning naming the missing headers")
    func defaultReporterLogs() async throws {
        let capture = LogCapture()
        let chain = InterceptorChain(
            interceptors: [SecurityGuardInterceptor(logger: capture.logger())],
            transport: StubTransport(always: APIResponse(statusCode: 200, headers: [:], body: Data())))
        _ = try await chain.send(Fixture.request())
        #expect(capture.text.contains("warning"))
        #expect(capture.text.contains("X-Frame-Options"))
    }
}
