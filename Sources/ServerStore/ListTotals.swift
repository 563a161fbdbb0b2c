/// Lists' totals, kept against the tenant's change sequence they were counted at.
///
/// Every committed change of a course, lesson, enrollment, progress record or profile moves the
/// change sequence in its own transaction (``ChangeLog``), and a list's total depends on nothing
/// else; so a total counted at sequence *n* is the answer for as long as the sequence stays *n*.
/// A list reads the sequence in the same read transaction as its page, from the database itself:
/// a change made by another process moves it too. So no commit empties it; it fills up with
/// older sequences' totals until its bound empties it.
///
/// A restored snapshot takes the sequence back, so a sequence no longer names one state: the
/// restore invalidates the cache, and a total is answered or kept only under the epoch its reader
/// took before its transaction began (``EpochCache/value(for:readAt:)``), so a read of the state
/// before a restore cannot put its total back afterwards.
package typealias ListTotals = EpochCache<ListTotalKey, Int>

/// A list's count statement and the change sequence it was counted at.
package struct ListTotalKey: Hashable, Sendable {
    package var count: ListStatement
    package var sequence: Int64

    package init(_ count: ListStatement, at sequence: Int64) {
        self.count = count
        self.sequence = sequence
    }
}

extension EpochCache where Key == ListTotalKey, Value == Int {
    /// A cache of at most `capacity` totals.
    package convenience init(capacity: Int = 1_024) {
        self.init(capacity: capacity, costCapacity: .max, cost: { _ in 0 })
    }
}
