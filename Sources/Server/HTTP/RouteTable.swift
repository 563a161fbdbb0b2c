import Hummingbird

/// The routes the server serves, collected before they are installed so that the
/// hygiene middlewares know every path and method (for 405 + `Allow`) and tests can compare
/// them with openapi.yaml.
struct RouteTable {
    typealias Handler = @Sendable (Request, EduGoRequestContext) async throws -> Response

    /// Who may call a route.
    enum Access {
        /// Anyone; the handler checks whatever it needs (a tenant header, a mailed token).
        case open
        /// Only a caller with a valid access token of a live session (``AuthenticationMiddleware``).
        case authenticated
        /// Authenticated, with a streamed body of its own size limit: not behind the idempotency
        /// middleware (which reads the whole body) nor the JSON body limit.
        case authenticatedStreaming
    }

    private(set) var entries: [(method: HTTPRequest.Method, path: String, access: Access, handler: Handler)] = []

    /// Adds a route. `path` uses OpenAPI-style parameters: `/v1/courses/{id}`. The handler
    /// returns what Hummingbird can answer with: a `Response`, a `ResponseEncodable` body (written
    /// by the context's ``APIResponseEncoder``), an ``APIResponse`` or a status.
    mutating func add<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ path: String, _ access: Access,
        _ handler: @escaping @Sendable (Request, EduGoRequestContext) async throws -> Output
    ) {
        entries.append((method, path, access, { request, context in
            try await handler(request, context).response(from: request, context: context)
        }))
    }

    /// Adds a route anyone may call.
    mutating func add<Output: ResponseGenerator>(
        _ method: HTTPRequest.Method, _ path: String,
        _ handler: @escaping @Sendable (Request, EduGoRequestContext) async throws -> Output
    ) {
        add(method, path, .open, handler)
    }

    var inventory: RouteInventory {
        RouteInventory(routes: entries.map { RouteInventory.Route(method: $0.method.rawValue, path: $0.path) })
    }

    /// The methods a path may be asked for: each one it does not serve answers 405 with `Allow`.
    /// (The HTTP parser refuses methods it does not know with 400 before any route is looked up.)
    static let answeredMethods: [HTTPRequest.Method] =
        [.get, .head, .post, .put, .patch, .delete, .options, .trace] + ["QUERY"].compactMap { HTTPRequest.Method($0) }

    /// A router that answers HEAD for every GET (same headers, no body: RFC 9110), as
    /// ``install(on:)`` expects.
    static func makeRouter() -> Router<EduGoRequestContext> {
        Router(context: EduGoRequestContext.self, options: .autoGenerateHeadEndpoints)
    }

    /// Installs every route (the `.authenticated` ones behind `authentication`, then
    /// `idempotency`), and for each path
    /// a 405 responder on the methods it does not serve, so that the router itself knows the
    /// difference between "no such path" (404) and "not with this method" (405). HEAD counts as
    /// served wherever GET is (see ``makeRouter()``).
    func install(
        on router: Router<EduGoRequestContext>, authentication: AuthenticationMiddleware? = nil,
        idempotency: IdempotencyMiddleware? = nil
    ) {
        let authenticated = router.group()
        if let authentication { authenticated.add(middleware: authentication) }
        let streaming = router.group()
        if let authentication { streaming.add(middleware: authentication) }
        if let idempotency { authenticated.add(middleware: idempotency) }
        var served: [String: Set<HTTPRequest.Method>] = [:]
        for entry in entries {
            switch entry.access {
            case .open: router.on(RouterPath(entry.path), method: entry.method, use: entry.handler)
            case .authenticated: authenticated.on(RouterPath(entry.path), method: entry.method, use: entry.handler)
            case .authenticatedStreaming: streaming.on(RouterPath(entry.path), method: entry.method, use: entry.handler)
            }
            served[entry.path, default: []].insert(entry.method)
        }
        for (path, methods) in served {
            var allowed = methods
            if methods.contains(.get) { allowed.insert(.head) }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.answeredMethods where !allowed.contains(method) {
                router.on(RouterPath(path), method: method) { request, _ -> Response in
                    throw APIError.methodNotAllowed(request.method, allow: allow)
                }
            }
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

    /// The path templates, as the router reports a matched route's `endpointPath`.
    var templates: Set<String> { Set(routes.map(\.path)) }
}

extension APIError {
    /// `405 method_not_allowed` with the path's `Allow` list.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allow: String) -> APIError {
        var headers = HTTPFields()
        headers[.allow] = allow
        return APIError(
            .methodNotAllowed, code: "method_not_allowed",
            detail: "\(method.rawValue) is not allowed here. Allowed: \(allow).", headers: headers)
    }
}
