import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// The SDK's list endpoints continue from the server's `next` cursor.
@Suite(.timeLimit(.minutes(2))) struct ListCursorEndToEndTests {
    @Test("walking the course list three at a time by next/after sees every course once")
    func walksByCursor() async throws {
        let server = try await EduGoTestServer.start { $0.seedDemoData = true }
        let view = try await serverView(server.baseURL)
        let whole: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 100))

        var seen: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let page: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 3, after: after))
            seen += page.items.map(\.id)
            after = page.next
            pages += 1
        } while after != nil && pages < 50

        #expect(seen == whole.items.map(\.id))
        #expect(pages == (whole.items.count + 2) / 3)
        await server.shutdown()
    }
}
