import Hummingbird

/// The one place that sets a JSON answer's `ETag`, `Cache-Control` and `Location`, and answers a
/// GET whose `If-None-Match` names the current entity tag with `304` and no body.
///
/// Every JSON answer passes through it: the request context's encoder (``APIResponseEncoder``)
/// with the default policy, ``APIResponse`` with a resource's version, ``CachedPage`` with the
/// tag of a list page's bytes.
struct ResponseValidators: Sendable {
    /// What an entity tag identifies, and so how `If-None-Match` is compared with it.
    enum Tag: Sendable {
        /// A resource's version: `"<version>"`, matched by the version it names (weak comparison).
        case version(Int)
        /// Encoded bytes (a list page): matched by the exact tag.
        case bytes(String)

        var header: String {
            switch self {
            case .version(let version): ETag.header(version: version)
            case .bytes(let tag): tag
            }
        }

        func matches(_ ifNoneMatch: String) -> Bool {
            let tags = ETag.list(ifNoneMatch)
            if tags.contains("*") { return true }
            switch self {
            case .version(let version): return tags.compactMap(ETag.version(from:)).contains(version)
            case .bytes(let tag): return tags.contains(tag)
            }
        }
    }

    var caching: CachePolicy = .noStore
    var tag: Tag? = nil
    /// Where a created resource lives.
    var location: String? = nil
    /// Whether a GET whose `If-None-Match` matches ``tag`` answers 304 (the contract offers it on
    /// every versioned read but `GET /v1/users/me`, whose tag serves only a later `If-Match`).
    var conditional = true

    /// Sets `Cache-Control`, `ETag` and `Location` on `headers`.
    func apply(to headers: inout HTTPFields) {
        headers[.cacheControl] = caching.headerValue
        if let tag { headers[.eTag] = tag.header }
        if let location { headers[.location] = location }
    }

    /// `304` with the validators when `request` is a GET (or HEAD) whose `If-None-Match` matches
    /// ``tag``; otherwise `encode()`'s answer with `status` and the validators.
    func response(
        to request: Request, status: HTTPResponse.Status, encode: () throws -> Response
    ) rethrows -> Response {
        if conditional, let tag, request.method == .get || request.method == .head,
            let ifNoneMatch = request.headers[.ifNoneMatch], tag.matches(ifNoneMatch)
        {
            var headers = HTTPFields()
            apply(to: &headers)
            return Response(status: .notModified, headers: headers)
        }
        var response = try encode()
        response.status = status
        apply(to: &response.headers)
        return response
    }
}
