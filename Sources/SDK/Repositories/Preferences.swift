import Foundation
import GRDB

/// The app's local settings (never sent to the server): theme, language, notifications,
/// biometrics and the last successful sync.
public struct AppPreferences: Sendable, Equatable, Codable {
    public enum Theme: String, Sendable, Codable, CaseIterable { case system, light, dark }

    public var theme: Theme = .system
    /// `es` unless the learner chose otherwise.
    public var language: String = "es"
    public var notificationsEnabled: Bool = true
    public var biometricsEnabled: Bool = false
    public var lastSyncDate: Date?

    public init() {}
}

/// Reads, writes and observes ``AppPreferences`` in the local store.
public struct Preferences: Sendable {
    let store: OfflineStore
    private static let key = "preferences"

    public func current() async throws -> AppPreferences {
        try await store.writer.read { db in try Self.load(db) }
    }

    public func update(_ change: @escaping @Sendable (inout AppPreferences) -> Void) async throws {
        try await store.writer.write { db in
            var preferences = try Self.load(db)
            change(&preferences)
            try Self.save(preferences, db)
        }
    }

    func set(lastSyncDate: Date) async throws {
        try await update { $0.lastSyncDate = lastSyncDate }
    }

    /// The preferences now and after every change (the store tells of changes; no polling).
    public func observe() -> LocalObservation<AppPreferences> {
        LocalObservation(ValueObservation.tracking { db in try Self.load(db) }.removeDuplicates().values(in: store.writer))
    }

    private static func load(_ db: Database) throws -> AppPreferences {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) else {
            return AppPreferences()
        }
        return (try? JSONCoding.decoder.decode(AppPreferences.self, from: Data(text.utf8))) ?? AppPreferences()
    }

    private static func save(_ preferences: AppPreferences, _ db: Database) throws {
        let text = String(decoding: try JSONCoding.encoder.encode(preferences), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [key, text])
    }
}
