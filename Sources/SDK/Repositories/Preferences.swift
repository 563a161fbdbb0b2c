import Foundation

/// The app's local settings (never sent to the server): theme, language, notifications,
/// biometrics and the last successful sync.
public struct AppPreferences: Sendable, Equatable, Codable {
    /// The app's colour scheme.
    public enum Theme: String, Sendable, Codable, CaseIterable {
        /// Follow the system's setting.
        case system
        /// Always light.
        case light
        /// Always dark.
        case dark
    }

    /// The colour scheme (the system's by default).
    public var theme: Theme = .system
    /// The language of the app's texts, as a language code (`es` unless the learner chose otherwise).
    public var language: String = "es"
    /// Whether the app may show notifications.
    public var notificationsEnabled: Bool = true
    /// Whether the app asks for biometrics to open.
    public var biometricsEnabled: Bool = false
    /// When the outbox was last drained without an error (set by the sync engine).
    public var lastSyncDate: Date?

    /// The defaults: the system's colour scheme, `es`, notifications on, biometrics off.
    public init() {}
}

/// Reads, writes and observes ``AppPreferences`` in the local store.
public struct Preferences: Sendable {
    let store: OfflineStore

    /// The stored preferences (the defaults before any were changed).
    public func current() async throws -> AppPreferences {
        try await store.read(.preferences)
    }

    /// Changes the preferences: `change` runs on the stored value inside one transaction, so two
    /// updates at once never lose either change.
    public func update(_ change: @escaping @Sendable (inout AppPreferences) -> Void) async throws {
        try await store.updatePreferences(change)
    }

    func set(lastSyncDate: Date) async throws {
        try await update { $0.lastSyncDate = lastSyncDate }
    }

    /// The preferences now and after every change (the store tells of changes; no polling).
    public func observe() -> LocalObservation<AppPreferences> {
        store.observe(.preferences)
    }
}
