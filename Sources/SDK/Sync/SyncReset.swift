import Foundation

/// A pull that found the device's position in the server's change feed no longer readable, and
/// started over from a base sync: what the server said and what the reset did.
///
/// The most important reason is ``Reason/timelineChanged``: the server's data was replaced by
/// something other than its own writes (a snapshot restore or an import on the dev backend, a
/// tenant deleted and created again). Everything the device had pulled since may have been undone,
/// so the base sync replaces the cached data in one transaction. The outbox, dead letters and
/// conflicts are kept; a queued write whose base no longer exists on the server is settled by its
/// resource's conflict rule (rebased, or accepted for the server) or parked as a conflict for the
/// user (``needsAttention``), never sent on top of a state its user never saw.
public struct SyncReset: Sendable, Equatable {
    /// Why the server refused the device's position (`410 cursor_expired`'s `reason`).
    public enum Reason: String, Sendable, Equatable {
        /// The server's data was replaced (snapshot restore, import, tenant re-created).
        case timelineChanged = "timeline_changed"
        /// The device was away longer than the server keeps its change log.
        case retentionExceeded = "retention_exceeded"
        /// The user's role changed: what they may see changed wholesale.
        case roleChanged = "role_changed"
        /// A reason this SDK does not know (or none given).
        case other
    }

    /// Why the reset happened.
    public var reason: Reason
    /// Cached records the base sync changed: written with a new state, or removed.
    public var resynced: Int
    /// Queued writes whose base no longer existed and that were rebased by their conflict rule.
    public var rebased: Int
    /// Queued writes whose base no longer existed, parked as conflicts for the user
    /// (``Outbox/conflicts()``).
    public var needsAttention: Int

    public init(reason: Reason, resynced: Int = 0, rebased: Int = 0, needsAttention: Int = 0) {
        self.reason = reason
        self.resynced = resynced
        self.rebased = rebased
        self.needsAttention = needsAttention
    }

    /// One line for a person, such as "the server's data was replaced (snapshot restore or
    /// import): 40 records resynced, 0 queued writes need attention".
    public var summary: String {
        let cause =
            switch reason {
            case .timelineChanged: "the server's data was replaced (snapshot restore or import)"
            case .retentionExceeded: "the server no longer had the changes since this device's last sync"
            case .roleChanged: "the user's role changed"
            case .other: "the server asked for a full resync"
            }
        let records = resynced == 1 ? "1 record" : "\(resynced) records"
        let writes = needsAttention == 1 ? "1 queued write needs" : "\(needsAttention) queued writes need"
        return "\(cause): \(records) resynced, \(writes) attention"
    }
}
