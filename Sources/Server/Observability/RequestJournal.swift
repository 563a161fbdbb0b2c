import EduGoGuarded

/// The dev-mode request journal: per tenant, the last requests with their path, caller,
/// `Idempotency-Key`, `If-Match`, the fault rule that fired and whether the answer was delivered,
/// so that a test can ask what its app sent (`GET /__dev/tenants/{id}/requests`).
///
/// Bounded twice: each tenant keeps its last ``capacity`` requests (oldest dropped first), and at
/// most ``tenantLimit`` tenants have a journal (the one started longest ago is dropped for a new
/// one). Requests to `/__dev/*` are not journaled.
final class RequestJournal: Sendable {
    /// How many requests each tenant's journal keeps.
    let capacity: Int
    /// How many tenants keep a journal at once.
    let tenantLimit: Int

    private struct Journals {
        var byTenant: [String: AccessLogBuffer] = [:]
        /// Tenants in the order their journals started.
        var order: [String] = []
    }

    private let journals = Guarded(Journals())

    init(capacity: Int = 1_000, tenantLimit: Int = 256) {
        self.capacity = max(1, capacity)
        self.tenantLimit = max(1, tenantLimit)
    }

    /// Keeps `entry` in `tenant`'s journal (its sequence numbers count that tenant's requests).
    func append(_ entry: AccessLogEntry, tenant: String) {
        let buffer = journals.withLock { journals in
            if let buffer = journals.byTenant[tenant] { return buffer }
            if journals.order.count >= tenantLimit {
                let dropped = journals.order.removeFirst()
                journals.byTenant[dropped] = nil
            }
            let buffer = AccessLogBuffer(capacity: capacity)
            journals.byTenant[tenant] = buffer
            journals.order.append(tenant)
            return buffer
        }
        buffer.append(entry)
    }

    /// `tenant`'s journal, oldest first, and how many requests it has seen (dropped ones included).
    func entries(of tenant: String) -> (entries: [AccessLogEntry], recorded: Int) {
        guard let buffer = journals.withLock({ $0.byTenant[tenant] }) else { return ([], 0) }
        let snapshot = buffer.snapshot()
        return (snapshot.kept.map(\.entry), snapshot.latestSequence)
    }

    /// Forgets `tenant`'s journal.
    func clear(_ tenant: String) {
        journals.withLock { journals in
            journals.byTenant[tenant] = nil
            journals.order.removeAll { $0 == tenant }
        }
    }
}
