import Foundation
import Synchronization
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Sign-out seals the user's store before destroying it: the check for waiting work and the seal
/// are one transaction, so a write racing a sign-out is never deleted without the refusal.
@Suite(.timeLimit(.minutes(2))) struct SignOutSealTests {
    /// A client whose server accepts any sign-in and sign-out, on a fresh data directory.
    func signedInClient(root: URL, environment: TestEnvironment) async throws -> (EduGoClient, OfflineSession) {
        let access = TestJWT.make(exp: environment.now + .seconds(900))
        let transport = StubTransport { request in
            request.url.path == "/v1/auth/login" ? .json(200, Fixture.tokenPair(access: access, refresh: "refresh-1")) : .ok
        }
        let client = EduGoClient(
            configuration: Fixture.configuration(), dataDirectory: root, tokenStore: InMemoryTokenStore(),
            transport: transport, environment: environment.sdk)
        let session = try await client.signIn(email: "ada@example.com", password: "secret")
        return (client, session)
    }

    @Test("a write racing sign-out, 200 times with random interleavings, is never lost: refused by the sign-out, or it makes the sign-out refuse")
    func racingWriteIsNeverLost() async throws {
        var writeRefused = 0
        var signOutRefused = 0
        for round in 0..<200 {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("sign-out-seal-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let environment = TestEnvironment()
            let (client, session) = try await signedInClient(root: root, environment: environment)
            let writeDelay = Int.random(in: 0...1_500)
            let signOutDelay = Int.random(in: 0...1_500)

            // When a profile edit and a sign-out race
            async let write: Result<User?, any Error> = {
                try? await Task.sleep(for: .microseconds(writeDelay))
                do { return .success(try await session.profile.update(firstName: "Carrera \(round)")) } catch { return .failure(error) }
            }()
            async let signOut: Result<Void, any Error> = {
                try? await Task.sleep(for: .microseconds(signOutDelay))
                do { return .success(try await client.signOut()) } catch { return .failure(error) }
            }()
            let (written, signedOut) = await (write, signOut)

            // Then exactly one of them refused, and a write that was kept is still waiting
            switch (written, signedOut) {
            case (.success, .success):
                Issue.record("round \(round): the write succeeded and sign-out deleted it")
            case (.success, .failure(let error)):
                #expect(error as? SignOutError == .pendingChanges(count: 1), "round \(round)")
                #expect(try await session.store.outboxCounts().pending == 1, "round \(round)")
                signOutRefused += 1
            case (.failure(let error), .success):
                // Refused as the app can tell: sealed or already deleted, never a database error
                #expect(error as? OfflineSessionError == .signedOut, "round \(round): \(error)")
                writeRefused += 1
            case (.failure(let writeError), .failure(let signOutError)):
                Issue.record("round \(round): both failed: \(writeError), \(signOutError)")
            }
        }
        #expect(writeRefused + signOutRefused == 200)
    }

    @Test("a session kept after its user signed out answers every read and write with OfflineSessionError.signedOut, which AppError shows as a session that ended")
    func signedOutSessionThrowsItsOwnError() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sign-out-seal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (client, session) = try await signedInClient(root: root, environment: TestEnvironment())
        _ = try await session.courses.list()

        // When its user signs out while the app still holds the session
        try await client.signOut()

        // Then its reads and writes fail with the SDK's own error, not SQLite's "connection is closed"
        await #expect(throws: OfflineSessionError.signedOut) { try await session.courses.list() }
        await #expect(throws: OfflineSessionError.signedOut) { try await session.profile.me() }
        await #expect(throws: OfflineSessionError.signedOut) { try await session.profile.update(firstName: "Ada") }
        await #expect(throws: OfflineSessionError.signedOut) { try await session.preferences.update { $0.theme = .dark } }
        #expect(AppError(OfflineSessionError.signedOut).underlying == .sessionExpired)
    }

    @Test("a sealed store refuses every write as signed out, and a sealed store left behind is opened afresh")
    func sealedStoreRefusesWrites() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sign-out-seal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try OfflineStore.open(directory: root, tenantID: Fixture.tenantID, userID: "user-1")
        try await store.updatePreferences { $0.theme = .dark }
        let read = { (store: OfflineStore) in try await store.writer.read { db in try OfflineStore.preferences(db).theme } }

        // When the store is sealed with nothing waiting
        #expect(try await store.sealUnlessPending(discarding: false, at: Date()) == .sealed)

        // Then a write fails as sealed, and changes nothing
        await #expect(throws: OfflineSessionError.signedOut) { try await store.updatePreferences { $0.theme = .light } }
        #expect(try await read(store) == .dark)

        // And opening it again (a sign-out that stopped before destroying it) gives an empty, writable store
        let reopened = try OfflineStore.open(directory: root, tenantID: Fixture.tenantID, userID: "user-1")
        #expect(try await read(reopened) == .system)
        try await reopened.updatePreferences { $0.theme = .light }
        #expect(try await read(reopened) == .light)
    }
}
