import EduGoSDK
import Foundation
import Synchronization

/// The real transport with the change feed's pages made small (the SDK asks for 500 changes a
/// page, which no test tenant fills), and a hook a test arms to act between two pages: after the
/// next page of `GET /v1/sync/changes` has been answered, and before the SDK asks for the one after.
final class PagingTransport: HTTPTransport {
    private let inner = platformTransport()
    private let pageSize: Int
    private let hook = Mutex<(@Sendable () async throws -> Void)?>(nil)
    /// The `cursor` of every feed request sent (`nil` for a base sync's first), in order.
    let cursors = Mutex<[String?]>([])

    init(pageSize: Int) {
        self.pageSize = pageSize
    }

    /// Runs `action` once, after the next answered page of the feed.
    func afterNextPage(_ action: @escaping @Sendable () async throws -> Void) {
        hook.withLock { $0 = action }
    }

    func send(_ request: APIRequest) async throws -> APIResponse {
        guard request.url.path.hasSuffix("/v1/sync/changes"),
              var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        else { return try await inner.send(request) }
        var items = components.queryItems ?? []
        cursors.withLock { $0.append(items.first { $0.name == "cursor" }?.value) }
        items.removeAll { $0.name == "limit" }
        items.append(URLQueryItem(name: "limit", value: String(pageSize)))
        components.queryItems = items
        var small = request
        small.url = components.url ?? request.url
        let response = try await inner.send(small)
        if response.statusCode == 200, let action = hook.withLock({ hook in defer { hook = nil }; return hook }) {
            try await action()
        }
        return response
    }
}
