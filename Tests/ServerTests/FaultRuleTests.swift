import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `/__dev/faults`: per-tenant fault rules, driven in-process.
@Suite(.timeLimit(.minutes(3))) struct FaultRuleTests {
    @Test("POST /__dev/faults answers 201 with the rule, its id and the defaults filled in")
    func createAnswersTheRule() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/__dev/faults", tenant: "demo",
                json: ResourceJSON.body(["method": "PUT", "path": "/v1/courses/*/progress", "action": "drop_response", "times": 2]))

            #expect(response.status == .created)
            HTTPHygieneTests.expectSecurityHeaders(response)
            let rule = try response.decode(FaultRuleBody.self)
            #expect(rule.id.hasPrefix("f-"))
            #expect(rule.method == "PUT")
            #expect(rule.path == "/v1/courses/*/progress")
            #expect(rule.action == "drop_response")
            #expect(rule.times == 2)
            #expect(rule.probability == 1)
            #expect(rule.status == 503)
            #expect(rule.delayMs == 0)
            #expect(rule.fired == 0)
            #expect(rule.active)
        }
    }

    @Test("a status rule answers problem+json injected_fault with Retry-After, without running the handler")
    func statusRuleAnswersInjectedFault() async throws {
        try await withServer { client in
            // Given a one-shot 503 on the course list
            try await client.injectFault(["method": "GET", "path": "/v1/courses", "action": "status", "status": 503, "retry_after": 2, "times": 1])
            let student = try await client.caller(.demoStudent)

            // When the student lists courses twice
            let first = try await client.get("/v1/courses", as: student)
            let second = try await client.get("/v1/courses", as: student)

            // Then the first is the injected fault and the second is served normally
            try expectProblem(first, .serviceUnavailable, "injected_fault")
            #expect(first.headers[.retryAfter] == "2")
            HTTPHygieneTests.expectSecurityHeaders(first)
            #expect(second.status == .ok)
            // And the list shows the rule fired once and retired
            let rules = try await client.faultRules()
            #expect(rules.map(\.fired) == [1])
            #expect(rules.map(\.active) == [false])
        }
    }

    @Test("an unauthenticated request is matched by its X-Tenant-ID")
    func unauthenticatedMatchedByHeader() async throws {
        try await withServer { client in
            try await client.injectFault(["path": "/v1/auth/login", "action": "status", "status": 500], tenant: "acme")

            try expectProblem(try await client.login(.acmeAdmin), .internalServerError, "injected_fault")
            #expect(try await client.login(.demoAdmin).status == .ok)
        }
    }

    @Test("two tenants with different fault rules do not see each other's faults")
    func tenantsDoNotShareFaults() async throws {
        try await withServer { client in
            // Given a 503 rule for demo and a 429 rule for acme on the same path
            try await client.injectFault(["path": "/v1/courses", "action": "status", "status": 503], tenant: "demo")
            try await client.injectFault(["path": "/v1/courses", "action": "status", "status": 429], tenant: "acme")
            let demo = try await client.caller(.demoStudent)
            let acme = try await client.caller(.acmeAdmin)

            // When each tenant's user lists courses (the tenant comes from the token)
            let demoAnswer = try await client.get("/v1/courses", as: demo)
            let acmeAnswer = try await client.get("/v1/courses", as: acme)

            // Then each sees only its own tenant's fault, and each list shows only its own rule
            try expectProblem(demoAnswer, .serviceUnavailable, "injected_fault")
            try expectProblem(acmeAnswer, .tooManyRequests, "injected_fault")
            #expect(try await client.faultRules(tenant: "demo").map(\.status) == [503])
            #expect(try await client.faultRules(tenant: "acme").map(\.status) == [429])
            #expect(try await client.faultRules(tenant: "demo").map(\.fired) == [1])
        }
    }

    @Test("a token's tenant wins over a different X-Tenant-ID for matching")
    func tokenTenantIsUsed() async throws {
        try await withServer { client in
            try await client.injectFault(["path": "/v1/auth/me", "action": "status"], tenant: "acme")
            let demo = try await client.caller(.demoStudent)

            // The demo token with an acme header is refused by the server (tenant_mismatch), not faulted
            let response = try await client.send(.get, "/v1/auth/me", tenant: "acme", bearer: demo.token)

            try expectProblem(response, .forbidden, "tenant_mismatch")
        }
    }

    @Test("'*' matches one segment and '**' the rest", arguments: [
        ("/v1/courses/*/progress", "/v1/courses/c1/progress", true),
        ("/v1/courses/*/progress", "/v1/courses/c1/lessons/l1/progress", false),
        ("/v1/courses/*", "/v1/courses", false),
        ("/v1/**", "/v1/courses/c1/lessons", true),
        ("/v1/**", "/v1", true),
        ("/v1/courses", "/v1/courses/", true),
        ("/v1/courses", "/v1/course", false),
    ])
    func globs(pattern: String, path: String, matches: Bool) throws {
        let glob = try #require(PathGlob(pattern))
        #expect(glob.matches(path) == matches)
    }

    @Test("malformed rules answer 400 validation_failed naming the field", arguments: [
        (#"{"path":"v1/courses","action":"status"}"#, "path"),
        (#"{"path":"/v1/**/progress","action":"status"}"#, "path"),
        (#"{"path":"/v1/cour*","action":"status"}"#, "path"),
        (#"{"path":"/v1/courses?x=1","action":"status"}"#, "path"),
        (#"{"path":"/v1/courses","action":"explode"}"#, "action"),
        (#"{"path":"/v1/courses"}"#, "action"),
        (#"{"action":"status"}"#, "path"),
        (#"{"path":"/v1/courses","action":"status","probability":1.5}"#, "probability"),
        (#"{"path":"/v1/courses","action":"status","probability":-0.1}"#, "probability"),
        (#"{"path":"/v1/courses","action":"status","probability":"often"}"#, "probability"),
        (#"{"path":"/v1/courses","action":"status","status":200}"#, "status"),
        (#"{"path":"/v1/courses","action":"status","times":0}"#, "times"),
        (#"{"path":"/v1/courses","action":"delay"}"#, "delay_ms"),
        (#"{"path":"/v1/courses","action":"status","method":"BREW"}"#, "method"),
        (#"{"path":"/v1/courses","action":"status","colour":"red"}"#, "colour"),
    ])
    func validation(body: String, field: String) async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/__dev/faults", tenant: "demo", json: body)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == [field])
            #expect(try await client.faultRules().isEmpty)
        }
    }

    @Test("fault rules need an existing tenant in X-Tenant-ID")
    func tenantRequired() async throws {
        try await withServer { client in
            let rule = ResourceJSON.body(["path": "/v1/courses", "action": "status"])
            try expectProblem(try await client.send(.post, "/__dev/faults", json: rule), .badRequest, "validation_failed")
            try expectProblem(
                try await client.send(.post, "/__dev/faults", tenant: "nowhere", json: rule), .notFound, "tenant_not_found")
            try expectProblem(try await client.send(.get, "/__dev/faults"), .badRequest, "validation_failed")
        }
    }

    @Test("DELETE /__dev/faults/{id} removes one rule, an unknown id answers 404, DELETE /__dev/faults removes all")
    func deleteRules() async throws {
        try await withServer { client in
            let first = try await client.injectFault(["path": "/v1/courses", "action": "status"])
            let second = try await client.injectFault(["path": "/v1/users", "action": "status"])
            let acme = try await client.injectFault(["path": "/v1/users", "action": "status"], tenant: "acme")

            let removed = try await client.send(.delete, "/__dev/faults/\(first.id)", tenant: "demo")
            #expect(removed.status == .noContent)
            #expect(try await client.faultRules().map(\.id) == [second.id])
            try expectProblem(try await client.send(.delete, "/__dev/faults/\(first.id)", tenant: "demo"), .notFound, "not_found")
            // Another tenant's rule is not found through this tenant
            try expectProblem(try await client.send(.delete, "/__dev/faults/\(acme.id)", tenant: "demo"), .notFound, "not_found")

            #expect(try await client.send(.delete, "/__dev/faults", tenant: "demo").status == .noContent)
            #expect(try await client.faultRules().isEmpty)
            #expect(try await client.faultRules(tenant: "acme").map(\.id) == [acme.id])
            // And the requests are served again
            let student = try await client.caller(.demoStudent)
            #expect(try await client.get("/v1/courses", as: student).status == .ok)
        }
    }

    @Test("a method-specific rule leaves other methods alone")
    func methodFilter() async throws {
        try await withServer { client in
            try await client.injectFault(["method": "POST", "path": "/v1/courses", "action": "status"])
            let student = try await client.caller(.demoStudent)

            #expect(try await client.get("/v1/courses", as: student).status == .ok)
        }
    }

    @Test("the dev endpoints themselves are never faulted")
    func devEndpointsAreExempt() async throws {
        try await withServer { client in
            try await client.injectFault(["path": "/**", "action": "status"])

            #expect(try await client.send(.get, "/__dev/faults", tenant: "demo").status == .ok)
            #expect(try await client.send(.delete, "/__dev/faults", tenant: "demo").status == .noContent)
        }
    }

    @Test("a delay rule waits delay_ms before handling the request normally")
    func delayRule() async throws {
        try await withServer { client in
            try await client.injectFault(["path": "/health", "action": "delay", "delay_ms": 300], tenant: "demo")
            let started = ContinuousClock.now

            let response = try await client.send(.get, "/health", tenant: "demo")

            #expect(response.status == .ok)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }
    }

    @Test("a seeded probability fires on the same requests in every run")
    func seededProbabilityIsReproducible() async throws {
        func pattern() async throws -> [Bool] {
            let injector = FaultInjector()
            let tenant = try #require(TenantID("demo"))
            _ = try await injector.add(
                ["path": .string("/x"), "action": .string("status"), "probability": .number(0.5), "seed": .integer(42)],
                tenant: tenant)
            var fired: [Bool] = []
            for _ in 0..<32 {
                fired.append(await injector.fire(tenant: tenant, method: "GET", path: "/x") != nil)
            }
            return fired
        }

        let first = try await pattern()
        let second = try await pattern()

        #expect(first == second)
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("probability 0 never fires and times counts only firings")
    func probabilityZeroNeverFires() async throws {
        let injector = FaultInjector()
        let tenant = try #require(TenantID("demo"))
        _ = try await injector.add(
            ["path": .string("/x"), "action": .string("status"), "probability": .integer(0), "times": .integer(1)],
            tenant: tenant)

        for _ in 0..<20 {
            #expect(await injector.fire(tenant: tenant, method: "GET", path: "/x") == nil)
        }
        #expect(await injector.rules(tenant: tenant).first?.active == true)
    }

    @Test("an injected status has a non-empty title: its reason phrase, or its class for a code without one")
    func injectedStatusHasATitle() async throws {
        try await withServer { client in
            // Given a 503 rule on the course list and a 499 rule (no standard phrase) on the profile
            try await client.injectFault(["method": "GET", "path": "/v1/courses", "action": "status", "status": 503, "times": 1])
            try await client.injectFault(["method": "GET", "path": "/v1/users/me", "action": "status", "status": 499, "times": 1])
            let student = try await client.caller(.demoStudent)

            // When both fire
            let unavailable = try await client.get("/v1/courses", as: student)
            let unnamed = try await client.get("/v1/users/me", as: student)

            // Then each problem has a title
            #expect(try expectProblem(unavailable, .serviceUnavailable, "injected_fault").title == "Service Unavailable")
            #expect(unnamed.status.code == 499)
            #expect(try unnamed.decode(Problem.self).title == "Client Error")
        }
    }
}
