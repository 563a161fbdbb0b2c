import EduGoGuarded

/// Lists' totals, kept against the tenant's change sequence they were counted at.
///
/// Every committed change of a course, lesson, enrollment, progress record or profile moves the
/// change sequence in its own transaction (``ChangeLog``), and a list's total depends on nothing
/// else; so a total counted at sequence *n* is the answer for as long as the sequence stays *n*.
/// A list reads the sequence in the same read transaction as its page, from the database itself:
/// a change made by another process moves it too. Totals of older sequences are dropped.
///
/// A restored snapshot takes the sequence back, so a sequence no longer names one state:
/// ``reset()`` empties the totals and moves the epoch on, and a total is kept or answered only
/// under the epoch its reader took before its transaction began (as ``LiveSessionCache`` does),
/// so a read of the state before a restore cannot put its total back afterwards.
///
/// It is bounded: when it holds `capacity` totals it starts again empty.
package final class ListTotals: Sendable {
    private struct State {
        package var epoch: UInt64 = 0
        package var sequence: Int64 = -1
        package var totals: [ListStatement: Int] = [:]
    }

    private let state = Guarded(State())
    private let capacity: Int

    package init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The current epoch: take it before the read transaction that counts a total.
    package var epoch: UInt64 { state.withLock { $0.epoch } }

    /// The total of `count` counted at `sequence`, if one was and no reset happened since `epoch`.
    package func total(of count: ListStatement, at sequence: Int64, epoch: UInt64) -> Int? {
        state.withLock { state in
            guard state.epoch == epoch, state.sequence == sequence else { return nil }
            return state.totals[count]
        }
    }

    /// Keeps `total`, counted at `sequence` by a read that began under `epoch`; a newer sequence
    /// drops every older total.
    package func store(_ total: Int, of count: ListStatement, at sequence: Int64, epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            if sequence > state.sequence || state.totals.count >= capacity {
                state = State(epoch: epoch, sequence: sequence, totals: [:])
            }
            guard sequence == state.sequence else { return }
            state.totals[count] = total
        }
    }

    /// Forgets every total and moves the epoch on (the database's contents were replaced).
    package func reset() {
        state.withLock { state in
            state = State(epoch: state.epoch &+ 1)
        }
    }
}
