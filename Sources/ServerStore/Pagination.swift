/// Where a list page starts and how many items it holds: either after a key (the `next` of the
/// previous page: keyset pagination) or at a page number (offset pagination).
package struct Pagination: Sendable {
    /// The page number; 1 when the request names none, and unused with ``after``.
    package var page: Int
    package var limit: Int
    /// The key the page continues after; `nil` starts the list (at ``page``).
    package var after: PageCursor?

    /// Rows skipped before the page: none when it continues from a key.
    package var offset: Int { after == nil ? (page - 1) * limit : 0 }

    package init(page: Int = 1, limit: Int = 20, after: PageCursor? = nil) {
        self.page = page
        self.limit = limit
        self.after = after
    }
}
