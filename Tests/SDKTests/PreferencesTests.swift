import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The app's local settings in the user's store.
@Suite(.timeLimit(.minutes(1))) struct PreferencesTests {
    let store: OfflineStore
    let preferences: Preferences

    init() throws {
        store = try OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: "user-1")
        preferences = Preferences(store: store)
    }

    @Test("the defaults are Spanish, the system theme, notifications on, biometrics off and never synced")
    func defaults() async throws {
        let current = try await preferences.current()

        #expect(current.language == "es")
        #expect(current.theme == .system)
        #expect(current.notificationsEnabled)
        #expect(!current.biometricsEnabled)
        #expect(current.lastSyncDate == nil)
        #expect(current == AppPreferences())
    }

    @Test("an update is read back and leaves the other settings alone")
    func updateIsReadBack() async throws {
        try await preferences.update { $0.theme = .dark }
        try await preferences.update { $0.language = "en" }

        let current = try await preferences.current()
        #expect(current.theme == .dark)
        #expect(current.language == "en")
        #expect(current.notificationsEnabled)
        #expect(!current.biometricsEnabled)
    }

    @Test("observing yields the current preferences, then each change")
    func observation() async throws {
        var values = preferences.observe().makeAsyncIterator()
        #expect(try await values.next() == AppPreferences())

        try await preferences.update { $0.notificationsEnabled = false }

        let changed = try await values.next()
        #expect(changed?.notificationsEnabled == false)
        #expect(changed?.language == "es")
    }

    @Test("another user's store starts from the defaults")
    func perUser() async throws {
        try await preferences.update { $0.biometricsEnabled = true }

        let other = Preferences(store: try OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: "user-2"))

        #expect(try await other.current() == AppPreferences())
        #expect(try await preferences.current().biometricsEnabled)
    }

    @Test("unreadable stored settings fall back to the defaults")
    func unreadableFallsBack() async throws {
        try await store.writer.write { db in
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('preferences', 'not json')")
        }

        #expect(try await preferences.current() == AppPreferences())
    }
}
