import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// The router skips empty path segments, so `//__dev/…` must not reach a
/// dev route past checks that read the raw path. Non-canonical paths answer 400 before routing.
@Suite(.timeLimit(.minutes(3))) struct CanonicalPathTests {
    static let foreign: HTTPFields = [.host: "127.0.0.1:8080", .origin: "http://evil.example"]

    @Test("a cross-origin POST //__dev/tenants answers 400 non_canonical_path and creates no tenant")
    func doubleSlashTenantCreationIsRefused() async throws {
        try await withServer(exposing: .testing()) { client, deps in
            // Given the tenants that exist
            let before = try await deps.tenants.tenantIDs()

            // When a page on another origin posts to the dev route with an empty first segment
            let response = try await client.send(.post, "//__dev/tenants", headers: Self.foreign)

            // Then it is refused and nothing is created
            try expectProblem(response, .badRequest, "non_canonical_path")
            #expect(try await deps.tenants.tenantIDs() == before)
        }
    }

    @Test("a cross-origin DELETE //__dev/clock or /./__dev/clock answers 400 and leaves the clock moved")
    func nonCanonicalClockResetIsRefused() async throws {
        try await withServer { client in
            // Given a clock moved by an hour
            _ = try await client.moveClock(by: 3600)

            // When a page on another origin resets it through non-canonical spellings of the path
            for path in ["//__dev/clock", "/./__dev/clock", "/v1/../__dev/clock", "/__dev//clock"] {
                let response = try await client.send(.delete, path, headers: Self.foreign)

                // Then each is refused
                try expectProblem(response, .badRequest, "non_canonical_path")
            }
            #expect(try await client.send(.get, "/__dev/clock").decode(ClockBody.self).offsetSeconds == 3600)
        }
    }

    @Test("a fault rule for /** does not fault //__dev/faults, and the rule can still be deleted")
    func broadFaultRuleSparesNonCanonicalDevPaths() async throws {
        try await withServer { client in
            // Given a rule faulting every path of the tenant
            _ = try await client.injectFault(["path": "/**", "action": "status", "status": 503])

            // When a dev route is asked for through an empty segment
            let response = try await client.send(.get, "//__dev/faults", tenant: "demo")

            // Then it is refused as a path, not faulted, and the rule is still deletable
            try expectProblem(response, .badRequest, "non_canonical_path")
            #expect(try await client.send(.delete, "/__dev/faults", tenant: "demo").status == .noContent)
            #expect(try await client.faultRules().isEmpty)
        }
    }

    @Test("a non-canonical path outside /__dev answers 400 too, with the security headers")
    func nonCanonicalAPIPathIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "//v1/courses", tenant: "demo")

            try expectProblem(response, .badRequest, "non_canonical_path")
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.xRequestID] != nil)
        }
    }

    @Test("canonical paths: a leading slash, no empty, '.' or '..' segment, no encoded separator; a trailing slash is fine")
    func canonicalPathRule() {
        for path in ["/", "/health", "/__dev/", "/v1/courses/abc", "/v1/users/%2E%2E", "/__dev/assets/app.js"] {
            #expect(RequestPath.isCanonical(path), "\(path)")
        }
        for path in [
            "", "__dev/tenants", "//__dev/tenants", "/__dev//tenants", "/./__dev/tenants", "/v1/../__dev/clock",
            "/__dev/.", "/__dev%2Ftenants", "/__dev%2ftenants", "/__dev%5Cclock", "//",
        ] {
            #expect(!RequestPath.isCanonical(path), "\(path)")
        }
    }

    @Test("a segment's edges: one byte, a percent sign at its end or one digit short, three dots, non-ASCII")
    func segmentEdges() {
        for path in ["/a", "/%", "/a%", "/a%2", "/%2", "/%2G", "/.../", "/.a", "/a.", "/..a", "/日本語/🎓", "/Matemáticas/", "/%E2%82%AC"] {
            #expect(RequestPath.isCanonical(path), "\(path)")
        }
        for path in ["/.", "/..", "/../", "/a/.", "/a/..", "/%2F", "/a%2f", "/%5c", "/日本語//🎓", "/🎓/./x", "/a%2F%"] {
            #expect(!RequestPath.isCanonical(path), "\(path)")
        }
    }
}
