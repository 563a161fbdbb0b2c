import Synchronization

/// Lists' totals, kept against the tenant's change sequence they were counted at.
///
/// Every committed change of a course, lesson, enrollment, progress record or profile moves the
/// change sequence in its own transaction (``ChangeLog``), and a list's total depends on nothing
/// else; so a total counted at sequence *n* is the answer for as long as the sequence stays *n*.
/// A list reads the sequence in the same read transaction as its page, from the database itself:
/// a change made by another process moves it too. Totals of older sequences are dropped.
///
/// It is bounded: when it holds `capacity` totals it starts again empty.
final class ListTotals: Sendable {
    private struct State {
        var sequence: Int64 = -1
        var totals: [String: Int] = [:]
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The total of `count` counted at `sequence`, if one was.
    func total(of count: ListStatement, at sequence: Int64) -> Int? {
        state.withLock { $0.sequence == sequence ? $0.totals[Self.key(count)] : nil }
    }

    /// Keeps `total`, counted at `sequence`; a newer sequence drops every older total.
    func store(_ total: Int, of count: ListStatement, at sequence: Int64) {
        state.withLock { state in
            if sequence > state.sequence || state.totals.count >= capacity {
                state = State(sequence: sequence, totals: [:])
            }
            guard sequence == state.sequence else { return }
            state.totals[Self.key(count)] = total
        }
    }

    private static func key(_ count: ListStatement) -> String {
        count.sql + "\u{0}" + count.arguments.description
    }
}
