import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Synchronization
import Testing

/// One user's sync never runs beside another's: signing in as someone else stops the previous
/// session's background work and waits for it.
@Suite(.timeLimit(.minutes(3))) struct SessionSwitchEndToEndTests {
    /// Set once a task's work has returned.
    final class Flag: Sendable {
        private let state = Mutex(false)
        func set() { state.withLock { $0 = true } }
        var isSet: Bool { state.withLock { $0 } }
    }

    @Test("signing in as another user stops the previous user's run() before sign-in returns")
    func switchStopsThePreviousSession() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                // Given a learner's session syncing in the background (a write of theirs drained)
                let client = makeEduGoClient(server: server.baseURL, directory: root)
                let first = try await client.signIn(email: Demo.studentEmail, password: Demo.studentPassword)
                let ended = Flag()
                let running = Task {
                    await first.run()
                    ended.set()
                }
                _ = try await first.profile.update(firstName: "Primera")
                #expect(try await eventually { try await first.engine.outbox.pending().isEmpty })
                #expect(!ended.isSet)

                // When another learner signs in on the same client
                let second = try await client.signIn(email: "student2@demo.edugo.dev", password: Demo.studentPassword)

                // Then the first learner's run() had returned by then
                #expect(ended.isSet)
                #expect(second.store.userID != first.store.userID)
                running.cancel()
                await running.value
                // And running it again does nothing: that session is over
                await first.run()
            }
        }
    }
}
