import Hummingbird

/// What a request costs the server, judged from the request before its handler runs: a heavy
/// one runs on the ``BackgroundLane``, at a lower priority, so that cheap requests keep their
/// latency while heavy ones queue.
///
/// Heavy means the work grows with the tenant's data: a search, a page found by skipping rows,
/// a base sync of the whole catalogue, a snapshot copied. A first page, a keyset page (`after`),
/// one object and every write read a bounded number of rows by an index.
struct RequestCost: Sendable {
    private let rule: @Sendable (Request) -> Bool

    /// Whether `request` is heavy.
    func isHeavy(_ request: Request) -> Bool {
        rule(request)
    }

    /// Heavy when `rule` says so.
    static func heavy(when rule: @escaping @Sendable (Request) -> Bool) -> RequestCost {
        RequestCost(rule: rule)
    }

    /// Every request of the route is cheap.
    static let light = RequestCost { _ in false }

    /// Every request of the route is heavy.
    static let heavy = RequestCost { _ in true }

    /// A list page: heavy when it searches (`q`) or skips rows by offset (`page` past the first).
    static let listPage = RequestCost { request in
        request.query("q") != nil || (request.query("page").flatMap { Int($0) } ?? 1) > 1
    }
}
