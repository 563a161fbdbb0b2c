import Hummingbird

/// `page` (from 1) and `limit` (1–100, default 20) from the query string.
struct Pagination: Sendable {
    var page: Int
    var limit: Int

    var offset: Int { (page - 1) * limit }

    init(page: Int = 1, limit: Int = 20) {
        self.page = page
        self.limit = limit
    }

    /// - Throws: `400 validation_failed` for non-numeric or out-of-range values.
    init(_ request: Request) throws {
        var errors: [APIError.FieldError] = []
        func read(_ name: String, default value: Int, range: ClosedRange<Int>) -> Int {
            guard let raw = request.uri.queryParameters[name[...]] else { return value }
            guard let parsed = Int(String(raw)), range.contains(parsed) else {
                errors.append(.init(field: name, code: "out_of_range", message: "must be an integer in \(range.lowerBound)...\(range.upperBound)"))
                return value
            }
            return parsed
        }
        self.page = read("page", default: 1, range: 1...1_000_000)
        self.limit = read("limit", default: 20, range: 1...100)
        if !errors.isEmpty { throw APIError.validation(errors) }
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
