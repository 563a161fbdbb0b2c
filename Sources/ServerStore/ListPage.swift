/// One page of a `/v1` list: its items, the cursor of the next page, and, when the list starts
/// here or the client pages by number, the page number and the total.
///
/// Encoded as `{"items": […], "page": 1, "limit": 20, "total": 57, "next": "…"}`; `next` is
/// always present (`null` on the last page), `page` and `total` are left out of answers to
/// `after`, so continuing from a cursor never counts the whole list.
package struct ListPage<Item: Sendable>: Sendable {
    package var items: [Item]
    /// The page number; `nil` when the page continued from a cursor.
    package var page: Int?
    package var limit: Int
    /// How many items the whole list holds; `nil` when the page continued from a cursor.
    package var total: Int?
    /// Where the next page starts; `nil` on the last page.
    package var next: PageCursor?

    /// A page from rows read in the list's order with one row more than `pagination.limit`: the
    /// extra row only tells that another page follows, and the last row kept names where.
    ///
    /// - Parameter rows: Up to `limit + 1` items with each one's order key.
    package init(rows: [(item: Item, key: PageCursor)], pagination: Pagination, total: Int?) {
        let kept = rows.prefix(pagination.limit)
        items = kept.map(\.item)
        page = pagination.after == nil ? pagination.page : nil
        limit = pagination.limit
        self.total = total
        next = rows.count > pagination.limit ? kept.last?.key : nil
    }

    private init(items: [Item], page: Int?, limit: Int, total: Int?, next: PageCursor?) {
        self.items = items
        self.page = page
        self.limit = limit
        self.total = total
        self.next = next
    }

    /// The same page with each item transformed (a store's rows into their response bodies).
    package func map<Other: Sendable>(_ transform: (Item) -> Other) -> ListPage<Other> {
        ListPage<Other>(items: items.map(transform), page: page, limit: limit, total: total, next: next)
    }

    /// The same page with each item transformed and those transformed to `nil` left out; `next`
    /// stays where it was (the key of the last row read).
    package func compactMap<Other: Sendable>(_ transform: (Item) -> Other?) -> ListPage<Other> {
        ListPage<Other>(items: items.compactMap(transform), page: page, limit: limit, total: total, next: next)
    }
}

extension ListPage: Encodable where Item: Encodable {
    private enum CodingKeys: String, CodingKey {
        case items, page, limit, total, next
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(page, forKey: .page)
        try container.encode(limit, forKey: .limit)
        try container.encodeIfPresent(total, forKey: .total)
        try container.encode(next?.token, forKey: .next)
    }
}
