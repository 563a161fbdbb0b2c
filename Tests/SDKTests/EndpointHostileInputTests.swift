import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Hostile ids and search strings never change which resource a request addresses.
/// (EndpointTests covers `../admin?x=1#frag`, `..` and a mixed query; these go wider.)
@Suite(.timeLimit(.minutes(2))) struct EndpointHostileInputTests {
    let base = URL(string: "https://api.edugo.dev")!

    static let hostile = [
        "my course", "../../users", "a/b", "?role=admin", "#top", "100%", "%2F", "%2e%2e", ".", "...", "café",
        "📚 química", "a+b=c&d", "semi;colon", "tab\there", "line\nbreak", "back\\slash", "@host:80", "~user",
    ]

    /// The path segments of a URL, percent-decoded.
    func decodedSegments(_ url: URL) throws -> [String] {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return try components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            try #require(String($0).removingPercentEncoding)
        }
    }

    @Test("a hostile id stays one segment and decodes back to itself", arguments: hostile)
    func segmentRoundTrip(id: String) throws {
        let url = try Endpoint.Courses.lesson(id, "l1").url(relativeTo: base)
        #expect(try decodedSegments(url) == ["v1", "courses", id, "lessons", "l1"])
        #expect(url.query == nil && url.fragment == nil)
        #expect(url.host == "api.edugo.dev")
    }

    @Test("a hostile query value stays one value and decodes back to itself", arguments: hostile)
    func queryRoundTrip(value: String) throws {
        let url = try Endpoint.Users.list(query: value, role: "student").url(relativeTo: base)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items == [URLQueryItem(name: "q", value: value), URLQueryItem(name: "role", value: "student")])
        #expect(url.path == "/v1/users" && url.fragment == nil)
    }

    @Test("spaces, percent signs and unicode in a segment are percent-encoded exactly once")
    func segmentEncoding() throws {
        #expect(try Endpoint.Users.get("my course").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/users/my%20course")
        #expect(try Endpoint.Users.get("100%").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/users/100%25")
        #expect(try Endpoint.Users.get("%2F").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/users/%252F")
        #expect(try Endpoint.Users.get("café").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/users/caf%C3%A9")
    }

    @Test("a single dot segment is encoded so it cannot collapse the path")
    func singleDot() throws {
        #expect(try Endpoint.Courses.lessons(".").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/courses/%2E/lessons")
    }

    @Test("a lone ? or # in a segment cannot start a query or fragment")
    func delimitersInSegment() throws {
        #expect(try Endpoint.Courses.get("?").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/courses/%3F")
        #expect(try Endpoint.Courses.get("#").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/courses/%23")
    }

    @Test("an empty id is refused instead of addressing the collection", arguments: [
        Endpoint.Users.get(""), .Users.delete(""), .Courses.update(""), .Courses.lesson("c1", ""), .Courses.enroll(""),
    ])
    func emptySegment(endpoint: Endpoint) {
        #expect(throws: NetworkError.self) { try endpoint.url(relativeTo: base) }
    }

    @Test("an empty query value is sent as an empty value")
    func emptyQueryValue() throws {
        #expect(try Endpoint.Courses.search("").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/courses/search?q=")
    }

    @Test("a token query value with reserved characters is encoded")
    func verifyEmailToken() throws {
        let url = try Endpoint.Auth.verifyEmail(token: "a/b+c=d&e").url(relativeTo: base)
        #expect(url.absoluteString == "https://api.edugo.dev/v1/auth/verify-email?token=a%2Fb%2Bc%3Dd%26e")
    }

    @Test("paging values are appended after the filters")
    func paging() throws {
        let url = try Endpoint.Courses.list(category: "math & science", page: 2, limit: 50).url(relativeTo: base)
        #expect(url.absoluteString == "https://api.edugo.dev/v1/courses?category=math%20%26%20science&page=2&limit=50")
    }

    @Test("a v2 endpoint uses the v2 prefix")
    func v2Prefix() throws {
        #expect(try Endpoint(.get, ["courses"], version: .v2).url(relativeTo: base).path == "/v2/courses")
    }

    @Test("a base URL without scheme or host is refused", arguments: ["api.edugo.dev", "/v1", "mailto:ada@example.com"])
    func invalidBase(base: String) throws {
        let url = try #require(URL(string: base))
        #expect(throws: NetworkError.invalidURL(url.absoluteString)) { try Endpoint.health.url(relativeTo: url) }
    }

    @Test("a hostile id sent through the client reaches the transport still encoded")
    func throughClient() async throws {
        let transport = StubTransport(always: .ok)
        let client = Fixture.client(transport: transport, store: await Fixture.store(holding: Fixture.session(expiresAt: .distantFuture)))
        _ = try await client.send(endpoint: .Courses.get("../../admin"))
        #expect(transport.requests.first?.url.absoluteString == "https://api.edugo.test/v1/courses/..%2F..%2Fadmin")
    }
}
