import Foundation

/// What the sync engine is doing and what is waiting.
public struct SyncStatus: Sendable, Equatable {
    /// Writes waiting in the outbox.
    public var pendingCount: Int = 0
    /// Age of the oldest waiting write.
    public var oldestPendingAge: TimeInterval?
    public var isSyncing: Bool = false
    public var isConnected: Bool = true
    public var lastSyncAt: Date?
    /// Why the last drain stopped short, `nil` when it sent everything it could.
    public var error: SyncError?
    /// ``error`` as text, for display.
    public var lastError: String?
    public var deadLetterCount: Int = 0
    public var conflictCount: Int = 0

    public init() {}
}

/// The outcome of one drain.
public struct SyncReport: Sendable, Equatable {
    public var sent = 0
    public var deadLettered = 0
    public var conflictsParked = 0
    public var remaining = 0

    public init() {}
}
