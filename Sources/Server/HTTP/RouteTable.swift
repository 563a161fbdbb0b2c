import Hummingbird

/// The routes the server serves, collected before they are installed so that the
/// hygiene middleware knows every path and method (for 405 + `Allow`) and tests can compare
/// them with openapi.yaml.
struct RouteTable {
    typealias Handler = @Sendable (Request, EduGoRequestContext) async throws -> Response

    private(set) var entries: [(method: HTTPRequest.Method, path: String, handler: Handler)] = []

    /// Adds a route. `path` uses OpenAPI-style parameters: `/v1/courses/{id}`.
    mutating func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        entries.append((method, path, handler))
    }

    var inventory: RouteInventory {
        RouteInventory(routes: entries.map { RouteInventory.Route(method: $0.method.rawValue, path: $0.path) })
    }

    func install(on router: Router<EduGoRequestContext>) {
        for entry in entries {
            router.on(RouterPath(entry.path), method: entry.method, use: entry.handler)
        }
    }
}

/// The method and path template of every served operation.
public struct RouteInventory: Sendable {
    /// One served operation.
    public struct Route: Sendable, Hashable {
        public var method: String
        public var path: String
    }

    public let routes: [Route]

    /// Methods served for a concrete request path, in a stable order, for the `Allow` header.
    ///
    /// Like the router, a literal segment wins over a parameter: `/v1/courses/search` answers
    /// with the methods of that route only, not those of `/v1/courses/{id}`.
    func allowedMethods(for requestPath: String) -> [String] {
        let segments = Self.segments(requestPath)
        let matching = routes.map { ($0, Self.segments($0.path)) }
            .filter { Self.matches(template: $0.1, path: segments) }
        guard let best = matching.map({ Self.specificity($0.1) }).max() else { return [] }
        let methods = matching.filter { Self.specificity($0.1) == best }.map(\.0.method)
        return Array(Set(methods)).sorted()
    }

    /// Literal segments as bits, most significant first, so earlier literals weigh more.
    private static func specificity(_ template: [Substring]) -> Int {
        template.reduce(0) { ($0 << 1) | ($1.hasPrefix("{") ? 0 : 1) }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func matches(template: [Substring], path: [Substring]) -> Bool {
        guard template.count == path.count else { return false }
        return zip(template, path).allSatisfy { template, actual in
            template.hasPrefix("{") || template == actual
        }
    }
}
