import Hummingbird

/// `405 method_not_allowed` with `Allow`, for each method a served path does not serve, so that
/// the router itself tells "no such path" (404) from "not with this method" (405).
enum MethodNotAllowed {
    /// The methods a path may be asked for: each one it does not serve answers 405 with `Allow`.
    /// (The HTTP parser refuses methods it does not know with 400 before any route is looked up.)
    static let answeredMethods: [HTTPRequest.Method] =
        [.get, .head, .post, .put, .patch, .delete, .options, .trace] + ["QUERY"].compactMap { HTTPRequest.Method($0) }

    /// Adds, for every path among `router.routes`, a responder on each method it does not serve.
    /// HEAD counts as served wherever GET is (the router generates it: `.autoGenerateHeadEndpoints`).
    /// Call it once, after the last route.
    static func answer(on router: Router<EduGoRequestContext>) {
        let served = Dictionary(grouping: router.routes, by: \.path.description)
        for routes in served.values {
            guard let path = routes.first?.path else { continue }
            var allowed = Set(routes.map(\.method))
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in answeredMethods where !allowed.contains(method) {
                router.on(path, method: method) { request, _ -> Response in
                    throw APIError.methodNotAllowed(request.method, allow: allow)
                }
            }
        }
    }
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
