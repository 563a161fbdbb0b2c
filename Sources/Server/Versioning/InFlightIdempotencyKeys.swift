import Foundation
import Synchronization

/// The `Idempotency-Key`s whose first request is running in this process, by tenant, user and key.
///
/// Claiming a key is a check and a write under one lock: two requests with one key never both
/// run. A key is held in memory, not in the database, so a claim costs no transaction, and a
/// server that stopped mid-request leaves no claim behind. The stored answers (the database)
/// are what outlives a request; a key is released only after its answer was stored.
final class InFlightIdempotencyKeys: Sendable {
    /// One key of one user of one tenant.
    struct Slot: Hashable, Sendable {
        var tenant: String
        var user: String
        var key: String
    }

    /// What trying to claim a slot found.
    enum Claim: Sendable, Equatable {
        /// The slot is the caller's until it releases it with `token`.
        case claimed(token: UInt64)
        /// A request with the same fingerprint holds it (`409 idempotency_in_progress`).
        case inProgress
        /// A request with another fingerprint holds it (`422 idempotency_key_reused`).
        case reused
    }

    private struct Holder {
        var token: UInt64
        var fingerprint: String
        var since: Date
    }

    private struct State {
        var nextToken: UInt64 = 1
        var holders: [Slot: Holder] = [:]
    }

    private let state = Mutex(State())

    /// Claims `slot` for a request with `fingerprint`, unless another request holds it; a holder
    /// that started before `abandonedBefore` (a request stuck past its time) is taken over.
    func claim(_ slot: Slot, fingerprint: String, now: Date, abandonedBefore: Date) -> Claim {
        state.withLock { state in
            if let holder = state.holders[slot], holder.since >= abandonedBefore {
                return holder.fingerprint == fingerprint ? .inProgress : .reused
            }
            let token = state.nextToken
            state.nextToken += 1
            state.holders[slot] = Holder(token: token, fingerprint: fingerprint, since: now)
            return .claimed(token: token)
        }
    }

    /// Releases `slot` if the claim with `token` still holds it (a request taken over as
    /// abandoned does not release its successor's claim).
    func release(_ slot: Slot, token: UInt64) {
        state.withLock { state in
            if state.holders[slot]?.token == token { state.holders[slot] = nil }
        }
    }
}
