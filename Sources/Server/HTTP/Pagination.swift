import EduGoServerStore
import Hummingbird

/// Reading a list's pagination from its query string: `limit` (1–100, default 20) and either
/// `after` (the opaque `next` of the previous page: keyset pagination) or `page` (from 1: offset
/// pagination, kept for clients written before `after`).
extension Pagination {
    /// - Parameter keyset: Whether the list reads `after` (the dev console's lists page by number only).
    /// - Throws: `400 validation_failed` for a non-numeric or out-of-range `page` or `limit`, an
    ///   `after` the server did not issue, or `after` together with `page`.
    init(_ request: Request, keyset: Bool = true) throws {
        var errors: [APIError.FieldError] = []
        func read(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
            guard let raw = request.uri.queryParameters[name[...]] else { return value }
            guard let parsed = Int(String(raw)), range.contains(parsed) else {
                errors.append(.init(field: name, code: "out_of_range", message: "must be an integer in \(range.lowerBound)...\(range.upperBound)"))
                return value
            }
            return parsed
        }
        let page = read("page", default: 1, range: 1...1_000_000)
        let limit = read("limit", default: 20, range: 1...100)
        var after: PageCursor?
        if keyset, let raw = request.query("after") {
            if request.query("page") != nil {
                errors.append(.init(field: "after", code: "not_with_page", message: "continues a list on its own; send either after or page"))
            } else if let cursor = PageCursor(token: raw) {
                after = cursor
            } else {
                errors.append(.init(field: "after", code: "invalid_format", message: "must be the next of a previous page, unchanged"))
            }
        }
        if !errors.isEmpty { throw APIError.validation(errors) }
        self.init(page: page, limit: limit, after: after)
    }
}

/// One page of a collection.
struct Page<Item: Sendable>: Sendable {
    var items: [Item]
    var page: Int
    var limit: Int
    var total: Int

    /// The same page with each item transformed (a store's rows into their response bodies).
    func map<Other: Sendable>(_ transform: (Item) -> Other) -> Page<Other> {
        Page<Other>(items: items.map(transform), page: page, limit: limit, total: total)
    }
}

extension Page: Encodable where Item: Encodable {}

/// `items`, `page`, `limit` and `total` are snake_case already.
extension Page: SnakeCaseKeyed where Item: SnakeCaseKeyed {}

extension Request {
    /// A query parameter, `nil` when absent.
    func query(_ name: String) -> String? {
        uri.queryParameters[name[...]].map(String.init)
    }

    /// A path parameter (always present on a matched route).
    func pathParameter(_ name: String, _ context: EduGoRequestContext) throws -> String {
        guard let value = context.parameters.get(name) else { throw APIError.notFound() }
        return value
    }
}
