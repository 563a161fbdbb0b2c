import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct EndpointTests {
    let base = URL(string: "https://api.edugo.dev")!

    @Test("a hostile id cannot climb out of its path segment")
    func hostileSegment() throws {
        let url = try Endpoint.Courses.get("../admin?x=1#frag").url(relativeTo: base)
        #expect(url.absoluteString == "https://api.edugo.dev/v1/courses/..%2Fadmin%3Fx%3D1%23frag")
    }

    @Test("dot segments are encoded whole")
    func dotSegments() throws {
        #expect(try Endpoint.Users.get("..").url(relativeTo: base).absoluteString == "https://api.edugo.dev/v1/users/%2E%2E")
    }

    @Test("query values with spaces, plus signs and unicode are percent-encoded")
    func queryEncoding() throws {
        let url = try Endpoint.Courses.search("matemáticas + física&x=1").url(relativeTo: base)
        #expect(url.absoluteString == "https://api.edugo.dev/v1/courses/search?q=matem%C3%A1ticas%20%2B%20f%C3%ADsica%26x%3D1")
    }

    @Test("a base URL with a path prefix keeps it")
    func basePrefix() throws {
        let url = try Endpoint.health.url(relativeTo: URL(string: "http://127.0.0.1:8080/api/")!)
        #expect(url.absoluteString == "http://127.0.0.1:8080/api/health")
    }
}
