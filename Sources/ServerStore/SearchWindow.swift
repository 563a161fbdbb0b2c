import GRDB

/// The newest rows of a list a search looks at first: where they end in the list's order and
/// which `rowid`s they span.
///
/// A broad search (a word most courses hold) matches within the first few pages of the list,
/// so ``CourseListQuery/page(within:)`` asks the search table only for the matches among these
/// rows, by `rowid` range, instead of building the set of every match in the catalogue. The
/// answer is exact when it fills the page or the window holds every row the caller may see;
/// otherwise the store asks again without the window (``CourseListQuery/page``).
///
/// The `rowid` range holds every row of the window, so the match set read for it holds every
/// match among them; rows outside the window that fall in the range are left out by the order
/// key (``last``). How narrow the range is depends on how closely `rowid` follows the list's
/// order: for courses created through the API (a new row gets the next `rowid` and the current
/// time) it is the window itself; for imported or back-dated rows it is wider, and only the cost
/// grows, never the answer.
package struct SearchWindow: Sendable {
    /// The smallest and largest `rowid` among the window's rows.
    package var rowIDs: ClosedRange<Int64>
    /// The order key of the window's last (oldest) row; `nil` when the window came back shorter
    /// than asked, and so holds every row the caller may see from where the page starts.
    package var last: PageCursor?

    /// Whether a short page from the window is the whole answer: it holds every row.
    package var holdsEveryRow: Bool { last == nil }
}

extension SearchWindow {
    /// The window of the rows ``CourseListQuery/window`` reads (each `row_id`, `created_at`,
    /// `id`, in the list's order), or `nil` when there are none.
    ///
    /// - Parameter size: how many rows the statement asked for (its `LIMIT`).
    package init?(_ rows: RowCursor, asked size: Int) throws {
        var count = 0
        var lowest = Int64.max
        var highest = Int64.min
        var last: PageCursor?
        while let row = try rows.next() {
            let rowID: Int64 = row["row_id"]
            lowest = min(lowest, rowID)
            highest = max(highest, rowID)
            count += 1
            // Only a full window's last row bounds the page: a shorter one holds every row.
            if count == size { last = PageCursor(timestamp: row["created_at"], id: row["id"]) }
        }
        guard count > 0 else { return nil }
        self.rowIDs = lowest...highest
        self.last = last
    }
}
