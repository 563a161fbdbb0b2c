import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// The dev console's page and files (`GET /__dev/`, `GET /__dev/assets/{name}`): dev mode only,
/// a fixed list of files, their own strict Content-Security-Policy.
@Suite(.timeLimit(.minutes(3))) struct DevConsoleTests {
    static let consolePolicy =
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"

    @Test("GET /__dev/ serves the console page as HTML with a strict policy of its own")
    func pageIsServed() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/__dev/")

            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.xFrameOptions] == "DENY")
            #expect(response.text.contains("<title>EduGo dev console</title>"))
            #expect(response.text.contains(#"<script type="module" src="/__dev/assets/console.js"></script>"#))
        }
    }

    @Test("the console's policy allows only its own origin: no inline code, no eval, no framing")
    func policyIsStrict() async throws {
        try await withServer { client in
            for path in ["/__dev/", "/__dev", "/__dev/assets/console.js", "/__dev/assets/console.css"] {
                let policy = try #require(try await client.send(.get, path).headers[.contentSecurityPolicy], "\(path)")

                #expect(policy == Self.consolePolicy, "\(path)")
                #expect(policy.hasPrefix("default-src 'self';"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("*"))
            }
        }
    }

    @Test("the page has no inline script, style or event handler (the policy would block them)")
    func pageHasNoInlineCode() async throws {
        try await withServer { client in
            let html = try await client.send(.get, "/__dev/").text

            #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains(" style="))
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
        }
    }

    @Test("every listed file is served with its media type")
    func assetsAreServed() async throws {
        try await withServer { client in
            for (name, contentType) in ConsoleAssets.contentTypes where name != "index.html" {
                let response = try await client.send(.get, "/__dev/assets/\(name)")

                #expect(response.status == .ok, "\(name)")
                #expect(response.headers[.contentType] == contentType, "\(name)")
                #expect(response.headers[.cacheControl] == "no-cache", "\(name)")
                #expect(!response.text.isEmpty, "\(name)")
            }
        }
    }

    @Test("the scripts never insert data as HTML")
    func scriptsInsertText() async throws {
        try await withServer { client in
            for name in ConsoleAssets.contentTypes.keys where name.hasSuffix(".js") {
                let script = try await client.send(.get, "/__dev/assets/\(name)").text

                for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                    #expect(!script.contains(sink), "\(name) uses \(sink)")
                }
            }
        }
    }

    @Test("names off the list and paths answer 404, traversal attempts 400 (non-canonical), with the API's policy")
    func onlyListedNames() async throws {
        try await withServer { client in
            let traversals = ["/__dev/assets/..%2Fopenapi.yaml", "/__dev/assets/../openapi.yaml", "/__dev/assets/Console%2Fconsole.js"]
            for path in [
                "/__dev/assets/index.html", "/__dev/assets/openapi.yaml", "/__dev/assets/CONSOLE.JS",
                "/__dev/assets/", "/__dev/assets/console.js/x",
            ] + traversals {
                let response = try await client.send(.get, path)

                #expect(response.status == (traversals.contains(path) ? .badRequest : .notFound), "\(path)")
                #expect(response.headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'", "\(path)")
                #expect(!response.text.contains("openapi: 3.1.0"), "\(path)")
            }
        }
    }

    @Test("outside dev mode the console, its files and the new dev endpoints answer 404 not_found")
    func absentOutsideDevMode() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        try await withServer(configuration) { client in
            for path in [
                "/__dev/", "/__dev", "/__dev/assets/console.js", "/__dev/requests", "/__dev/server", "/__dev/tenants",
                "/__dev/tenants/demo/users", "/__dev/tenants/demo/requests",
            ] {
                let response = try await client.send(.get, path)

                try expectProblem(response, .notFound, "not_found")
                HTTPHygieneTests.expectSecurityHeaders(response)
            }
        }
    }

    @Test("the console and its files follow the dev perimeter: a foreign Host answers 421")
    func perimeterApplies() async throws {
        try await withServer { client in
            for path in ["/__dev/", "/__dev", "/__dev/assets/console.js"] {
                let response = try await client.send(.get, path, headers: [.host: "attacker.example"])

                try expectProblem(response, .misdirectedRequest, "misdirected_request")
            }
        }
    }

    @Test("/__dev without its slash is a dev path too (loopback only)")
    func bareDevPathIsGuarded() {
        #expect(DevHostGuard.isDevPath("/__dev"))
        #expect(DevHostGuard.isDevPath("/__dev/"))
        #expect(DevHostGuard.isDevPath("/__dev/assets/console.js"))
        #expect(!DevHostGuard.isDevPath("/__devx"))
        #expect(!DevHostGuard.isDevPath("/v1/__dev/"))
    }
}
