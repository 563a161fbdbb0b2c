import Hummingbird

/// A JSON answer with more to say than `200` and `no-store`: its status, cache policy, version
/// (`ETag`, and `304` to a GET that holds it) and location. The body is written by the request
/// context's encoder; the headers by ``ResponseValidators``.
///
/// ```swift
/// return APIResponse(CourseResponse(course), status: .created, caching: .revalidate,
///                    version: 1, location: "/v1/courses/\(course.id)")
/// ```
struct APIResponse<Body: Encodable & Sendable>: ResponseGenerator, Sendable {
    var body: Body
    var status: HTTPResponse.Status
    var validators: ResponseValidators

    init(
        _ body: Body, status: HTTPResponse.Status = .ok, caching: CachePolicy = .noStore, version: Int? = nil,
        location: String? = nil, conditional: Bool = true
    ) {
        self.body = body
        self.status = status
        validators = ResponseValidators(
            caching: caching, tag: version.map { .version($0) }, location: location, conditional: conditional)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try validators.response(to: request, status: status) {
            try context.responseEncoder.encode(body, from: request, context: context)
        }
    }
}
