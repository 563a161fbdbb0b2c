import Foundation
import GRDB

/// The app's local settings, kept as one JSON value in the store's `settings` table.
extension OfflineStore {
    private static let preferencesKey = "preferences"

    /// Changes the preferences in one transaction (read, change, write).
    ///
    /// - Throws: ``OfflineSessionError/signedOut`` once the user signed out, or a database error.
    func updatePreferences(_ change: @escaping @Sendable (inout AppPreferences) -> Void) async throws {
        try await ofSignedInUser {
            try await writer.write { db in
                var preferences = try Self.preferences(db)
                change(&preferences)
                let text = String(decoding: try JSONCoding.encoder.encode(preferences), as: UTF8.self)
                try db.execute(sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", arguments: [Self.preferencesKey, text])
            }
        }
    }

    /// The stored preferences, or the defaults when none (or unreadable ones) are stored.
    static func preferences(_ db: Database) throws -> AppPreferences {
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [preferencesKey]) else {
            return AppPreferences()
        }
        return (try? JSONCoding.decoder.decode(AppPreferences.self, from: Data(text.utf8))) ?? AppPreferences()
    }
}

extension LocalRead<AppPreferences> {
    /// The app's local settings.
    static var preferences: Self { Self { db in try OfflineStore.preferences(db) } }
}
