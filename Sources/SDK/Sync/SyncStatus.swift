import Foundation

/// What the sync engine is doing and what is waiting.
public struct SyncStatus: Sendable, Equatable {
    /// Writes waiting in the outbox.
    public var pendingCount: Int = 0
    /// How long, in seconds, the oldest waiting write has waited (`nil` when none waits): a large
    /// value means this device's changes have not reached the server for a while.
    public var oldestPendingAge: TimeInterval?
    /// Whether a drain is sending writes right now (show activity while it is true).
    public var isSyncing: Bool = false
    /// Whether the server was reachable when the status was last published.
    public var isConnected: Bool = true
    /// When a drain last ended without an error (`nil` before one has): read from the user's store,
    /// where ``AppPreferences/lastSyncDate`` keeps it, so it is the same across launches.
    public var lastSyncAt: Date?
    /// Why the last drain stopped short, `nil` when it sent everything it could; ``SyncError/signedOut``
    /// from the moment any request of the session (a drain, a pull, a read, a download) finds it ended,
    /// until the user signs in again.
    public var error: SyncError?
    /// ``error`` as text, for display.
    public var lastError: String?
    /// Writes the server refused for good, waiting for the app to retry or discard them
    /// (``Outbox/deadLetters()``).
    public var deadLetterCount: Int = 0
    /// Conflicts parked for the app to settle (``Outbox/conflicts()``).
    public var conflictCount: Int = 0
    /// When a pull of the server's changes last finished (`nil` before one has in this session).
    public var lastPullAt: Date?
    /// The last reset of this session: a pull that found the device's position no longer
    /// readable (the server's data was replaced, say) and resynced from scratch.
    public var lastReset: SyncReset?

    /// A status with nothing waiting, connected and idle: what the engine publishes before it
    /// has counted the outbox; build others for previews and tests.
    public init() {}
}

/// The outcome of one sync: the drain of the outbox, then the pull of the server's changes.
public struct SyncReport: Sendable, Equatable {
    /// Writes the server accepted.
    public var sent = 0
    /// Writes the server refused for good, or that became stale, now in the dead letters.
    public var deadLettered = 0
    /// Conflicting writes parked for the app to settle.
    public var conflictsParked = 0
    /// Writes still waiting in the outbox when the drain ended (for a retry, the connection or
    /// the user).
    public var remaining = 0
    /// Changes the pull after the drain received from the server.
    public var pulled = 0
    /// Cached entities the pull wrote or removed.
    public var applied = 0
    /// Whether the pull started from nothing: the first sync, or the server no longer had the
    /// changes after the stored cursor (`410 cursor_expired`).
    public var baseSync = false
    /// Why the pull did not finish, `nil` when it did.
    public var pullError: SyncError?
    /// Set when the pull had to start over and why (``SyncReset/reason``), with what it did:
    /// a server whose data was replaced (snapshot restore, import) says so here.
    public var reset: SyncReset?

    /// A report of a drain that did nothing; for previews and tests.
    public init() {}
}
