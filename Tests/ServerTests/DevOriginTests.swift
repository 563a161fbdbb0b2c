import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// State-changing `/__dev` calls refuse another origin (CSRF from a page the developer opens).
@Suite(.timeLimit(.minutes(3))) struct DevOriginTests {
    @Test("a POST or DELETE under /__dev from another origin answers 403 cross_origin_refused and changes nothing")
    func foreignOriginIsRefused() async throws {
        try await withServer { client in
            let foreign: HTTPFields = [.host: "127.0.0.1:8080", .origin: "http://evil.example"]
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/__dev/tenants", nil),
                (.post, "/__dev/faults", #"{"path":"/v1/**","action":"status"}"#),
                (.delete, "/__dev/faults", nil),
                (.post, "/__dev/clock", #"{"advance_seconds":3600}"#),
                (.delete, "/__dev/clock", nil),
            ]
            for (method, path, json) in attempts {
                let response = try await client.send(method, path, tenant: "demo", json: json, headers: foreign)

                try expectProblem(response, .forbidden, "cross_origin_refused")
            }

            #expect(try await client.faultRules().isEmpty)
            #expect(try await client.send(.get, "/__dev/clock").decode(ClockBody.self).offsetSeconds == 0)
        }
    }

    @Test("an opaque origin (null) and the same host under another scheme or port are foreign too")
    func lookalikeOriginsAreRefused() async throws {
        try await withServer { client in
            for origin in ["null", "https://127.0.0.1:8080", "http://127.0.0.1:9090", "http://localhost.evil.example:8080"] {
                let response = try await client.send(
                    .post, "/__dev/tenants", headers: [.host: "127.0.0.1:8080", .origin: origin])

                try expectProblem(response, .forbidden, "cross_origin_refused")
            }
        }
    }

    @Test("the server's own origin and requests without Origin (SDK, scripts, curl) are served")
    func ownOriginAndNoOriginAreServed() async throws {
        try await withServer { client in
            let own = try await client.send(
                .post, "/__dev/clock", json: #"{"advance_seconds":60}"#,
                headers: [.host: "127.0.0.1:8080", .origin: "http://127.0.0.1:8080"])
            let none = try await client.send(.post, "/__dev/clock", json: #"{"advance_seconds":60}"#)

            #expect(own.status == .ok)
            #expect(none.status == .ok)
            #expect(try none.decode(ClockBody.self).offsetSeconds == 120)
        }
    }

    @Test("reads under /__dev are not refused for their Origin (the browser's same-origin policy guards what they answer)")
    func readsAreNotChecked() async throws {
        try await withServer { client in
            let response = try await client.send(
                .get, "/__dev/clock", headers: [.host: "127.0.0.1:8080", .origin: "http://evil.example"])

            #expect(response.status == .ok)
        }
    }

    @Test("origins compare exactly, ignoring case")
    func originComparison() {
        #expect(DevHostGuard.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(DevHostGuard.isSameOrigin("HTTP://LOCALHOST:8080", host: "localhost:8080"))
        #expect(!DevHostGuard.isSameOrigin("http://127.0.0.1:8080", host: nil))
        #expect(!DevHostGuard.isSameOrigin("http://127.0.0.1:8080.evil.example", host: "127.0.0.1:8080"))
        #expect(!DevHostGuard.isSameOrigin("http://127.0.0.1", host: "127.0.0.1:8080"))
    }
}
