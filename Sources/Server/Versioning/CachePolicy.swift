/// How a response may be cached: the value of its `Cache-Control`.
enum CachePolicy: Sendable {
    /// Auth and user data: never stored.
    case noStore
    /// Course resources: may be stored, must be revalidated (`ETag`).
    case revalidate
    /// Public, briefly cacheable documents such as the JWKS.
    case publicFor(seconds: Int)

    var headerValue: String {
        switch self {
        case .noStore: "no-store"
        case .revalidate: "private, no-cache"
        case .publicFor(let seconds): "public, max-age=\(seconds)"
        }
    }
}
