import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `GET /metrics`: Prometheus text from this application's own registry.
@Suite(.timeLimit(.minutes(3))) struct MetricsTests {
    static func scrape(_ client: some TestClientProtocol, bearer: String? = nil) async throws -> [PrometheusTextParser.Sample] {
        let response = try await client.send(.get, "/metrics", bearer: bearer)
        guard response.status == .ok else {
            throw HelperFailure(description: "/metrics answered \(response.status): \(response.text)")
        }
        return try PrometheusTextParser.parse(response.text)
    }

    @Test("in dev mode /metrics answers strict Prometheus text counting the requests just made, by route template")
    func countsRequestsByRouteTemplate() async throws {
        try await withServer { client in
            // Given three course lists and one course read
            let student = try await client.caller(.demoStudent)
            for _ in 0..<3 { #expect(try await client.get("/v1/courses", as: student).status == .ok) }
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            #expect(try await client.get("/v1/courses/\(course.id)", as: student).status == .ok)

            // When the metrics are scraped
            let response = try await client.send(.get, "/metrics")

            // Then the text parses strictly and counts them under the route template, never the raw path
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            HTTPHygieneTests.expectSecurityHeaders(response)
            let samples = try PrometheusTextParser.parse(response.text)
            #expect(samples.value("edugo_http_requests_total", ["method": "GET", "route": "/v1/courses", "status": "200"]) == 4)
            #expect(samples.value("edugo_http_requests_total", ["method": "GET", "route": "/v1/courses/{id}", "status": "200"]) == 1)
            #expect(samples.value("edugo_http_request_duration_seconds_count", ["method": "GET", "route": "/v1/courses", "status": "200"]) == 4)
            #expect(!response.text.contains(course.id))
        }
    }

    @Test("unmatched paths are counted as 'unmatched', not by their raw path")
    func unmatchedPaths() async throws {
        try await withServer { client in
            _ = try await client.send(.get, "/secret-token-in-path")

            let samples = try await Self.scrape(client)

            #expect(samples.value("edugo_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 1)
            #expect(!samples.contains { $0.labels.values.contains { $0.contains("secret") } })
        }
    }

    @Test("faults fired, rate-limit refusals, idempotent replays, transactions, tenant pools and sessions are counted")
    func serverEvents() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.rateLimits = RateLimitTests.limits(loginPerAccount: 1)
        try await withServer(configuration) { client in
            let student = try await client.caller(.demoStudent)
            try await client.injectFault(["path": "/v1/users/me", "action": "status", "times": 1])
            _ = try await client.get("/v1/users/me", as: student)
            _ = try await RateLimitTests.failLogin(client, email: Credentials.demoTeacher.email)
            _ = try await RateLimitTests.failLogin(client, email: Credentials.demoTeacher.email)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            for _ in 0..<2 {
                _ = try await client.putProgress(
                    in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 5],
                    headers: .idempotencyKey("metrics-key"))
            }

            let samples = try await Self.scrape(client)

            #expect(samples.value("edugo_faults_fired_total", ["action": "status"]) == 1)
            #expect(samples.value("edugo_faults_fired_total", ["action": "drop_response"]) == 0)
            #expect(samples.value("edugo_rate_limit_refusals_total") == 1)
            #expect(samples.value("edugo_idempotent_replays_total") == 1)
            #expect((samples.value("edugo_sqlite_transaction_duration_seconds_count") ?? 0) > 0)
            #expect((samples.value("edugo_open_tenant_pools") ?? 0) >= 1)
            #expect((samples.value("edugo_active_sessions") ?? 0) >= 1)
        }
    }

    @Test("two servers in one process count only their own requests")
    func registriesArePerApplication() async throws {
        try await withServer { first in
            try await withServer { second in
                for _ in 0..<2 { _ = try await first.send(.get, "/health") }

                let firstSamples = try await Self.scrape(first)
                let secondSamples = try await Self.scrape(second)

                #expect(firstSamples.value("edugo_http_requests_total", ["method": "GET", "route": "/health", "status": "200"]) == 2)
                #expect(secondSamples.value("edugo_http_requests_total", ["method": "GET", "route": "/health", "status": "200"]) == nil)
            }
        }
    }

    @Test("outside dev mode /metrics answers 404 without a token, even when enabled")
    func hiddenOutsideDevModeWithoutToken() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        configuration.metricsEnabled = true
        try await withServer(configuration) { client in
            try expectProblem(try await client.send(.get, "/metrics"), .notFound, "not_found")
        }
    }

    @Test("with a metrics token /metrics requires it as a Bearer token")
    func tokenRequired() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        configuration.metricsEnabled = true
        configuration.metricsToken = "scrape-secret"
        try await withServer(configuration) { client in
            try expectProblem(try await client.send(.get, "/metrics"), .unauthorized, "unauthorized")
            try expectProblem(try await client.send(.get, "/metrics", bearer: "wrong"), .unauthorized, "unauthorized")
            #expect(try await client.send(.get, "/metrics", bearer: "scrape-secret").status == .ok)
        }
    }

    @Test("--no-metrics turns /metrics off in dev mode")
    func disabledInDevMode() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.metricsEnabled = false
        try await withServer(configuration) { client in
            try expectProblem(try await client.send(.get, "/metrics"), .notFound, "not_found")
        }
    }

    @Test("the strict parser refuses malformed exposition text", arguments: [
        "x 1\n", "# TYPE x counter\nx{a=\"1\" 1\n", "# TYPE x counter\nx one\n", "# TYPE x counter\nx 1",
        "# TYPE x counter\nx{a=\"\\q\"} 1\n", "# TYPE x counter\nx 1\nx 2\n",
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n",
    ])
    func parserIsStrict(text: String) {
        #expect(throws: PrometheusTextParser.Failure.self) { try PrometheusTextParser.parse(text) }
    }
}
