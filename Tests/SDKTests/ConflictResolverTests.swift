import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``ConflictResolver/resolve(strategy:resource:base:local:server:serverVersion:)`` as a pure
/// function: the strategy and three JSON objects in, a resolution out.
@Suite(.timeLimit(.minutes(2))) struct ConflictResolverTests {
    static let progress = ResourceKey.progress(course: "course-1", lesson: "lesson-1")
    static let profile = ResourceKey.profile

    private func resolve(
        _ strategy: ConflictStrategy, _ resource: ResourceKey, base: [String: Any]?, local: [String: Any]?,
        server: [String: Any], version: Int = 7
    ) -> ConflictResolver.Resolution {
        ConflictResolver.resolve(
            strategy: strategy, resource: resource, base: base.map(OfflineFixture.data), local: local.map(OfflineFixture.data),
            server: OfflineFixture.data(server), serverVersion: version)
    }

    /// The body of a `.resend`, decoded, or `nil` for any other resolution.
    private func resent(_ resolution: ConflictResolver.Resolution) -> [String: Any]? {
        guard case .resend(let body, _) = resolution else { return nil }
        return OfflineFixture.object(body)
    }

    private func resentVersion(_ resolution: ConflictResolver.Resolution) -> Int? {
        guard case .resend(_, let version) = resolution else { return nil }
        return version
    }

    // MARK: serverWins, clientWins, manual

    @Test("server wins accepts the server's state whatever the bodies")
    func serverWins() {
        let resolution = resolve(
            .serverWins, Self.progress, base: nil, local: ["lesson_id": "lesson-1", "watched_seconds": 999],
            server: OfflineFixture.progress(watched: 1, version: 7))
        #expect(resolution == .acceptServer)
    }

    @Test("client wins resends the local body unchanged on the server's version")
    func clientWins() {
        let local = OfflineFixture.data(["first_name": "Ana"])
        let resolution = ConflictResolver.resolve(
            strategy: .clientWins, resource: Self.profile, base: nil, local: local,
            server: OfflineFixture.data(OfflineFixture.user(firstName: "Eva", version: 7)), serverVersion: 7)
        #expect(resolution == .resend(body: local, version: 7))
    }

    @Test("manual parks the conflict")
    func manualParks() {
        let resolution = resolve(.manual, Self.profile, base: nil, local: ["first_name": "Ana"], server: OfflineFixture.user())
        #expect(resolution == .park)
    }

    // MARK: merge

    @Test("merge: a field changed only locally wins")
    func localOnlyChangeWins() {
        let base = OfflineFixture.user(firstName: "Ada", lastName: "Lovelace", version: 1)
        let server = OfflineFixture.user(firstName: "Ada", lastName: "Lovelace", version: 2)
        let resolution = resolve(.merge, Self.profile, base: base, local: ["first_name": "Ana"], server: server, version: 2)

        #expect(resent(resolution)?["first_name"] as? String == "Ana")
        #expect(resentVersion(resolution) == 2)
    }

    @Test("merge: a field changed only on the server stays the server's")
    func serverOnlyChangeStays() {
        // Given the server changed the last name and this device changed the first name
        let base = OfflineFixture.user(firstName: "Ada", lastName: "Lovelace", version: 1)
        let server = OfflineFixture.user(firstName: "Ada", lastName: "Byron", version: 2)
        let local = ["first_name": "Ana", "last_name": "Lovelace"]

        let body = resent(resolve(.merge, Self.profile, base: base, local: local, server: server, version: 2))

        // Then the resend keeps the server's last name and carries the local first name
        #expect(body?["first_name"] as? String == "Ana")
        #expect(body?["last_name"] as? String == "Byron")
    }

    @Test("merge: a profile field changed on both sides keeps the local value")
    func profileBothChangedKeepsLocal() {
        let base = OfflineFixture.user(firstName: "Ada", version: 1)
        let server = OfflineFixture.user(firstName: "Eva", version: 2)

        let body = resent(resolve(.merge, Self.profile, base: base, local: ["first_name": "Ana"], server: server, version: 2))

        #expect(body?["first_name"] as? String == "Ana")
    }

    @Test("merge: progress watched on both sides takes the larger value")
    func progressWatchedTakesMax() {
        let base = OfflineFixture.progress(watched: 60, version: 1)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 400]
        let server = OfflineFixture.progress(watched: 300, version: 2)

        let body = resent(resolve(.merge, Self.progress, base: base, local: local, server: server, version: 2))

        #expect(body?["watched_seconds"] as? Int == 400)
        #expect(body?["lesson_id"] as? String == "lesson-1")
    }

    @Test("merge: progress completed on both sides is true if either side completed")
    func progressCompletedIsOr() {
        // Given no common base (both sides count as changed): this device says not completed but
        // watched longer, the server says completed
        let server = OfflineFixture.progress(watched: 500, completed: true, version: 4)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 600, "completed": false]

        let body = resent(resolve(.merge, Self.progress, base: nil, local: local, server: server, version: 4))

        // Then the completion stays and the longer watch time is sent
        #expect(body?["completed"] as? Bool == true)
        #expect(body?["watched_seconds"] as? Int == 600)
    }

    @Test("merge: a completion made only on the server is not undone by an unchanged local value")
    func serverOnlyCompletionStays() {
        let base = OfflineFixture.progress(watched: 60, completed: false, version: 1)
        let server = OfflineFixture.progress(watched: 60, completed: true, version: 2)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 120, "completed": false]

        let body = resent(resolve(.merge, Self.progress, base: base, local: local, server: server, version: 2))

        #expect(body?["completed"] as? Bool == true)
        #expect(body?["watched_seconds"] as? Int == 120)
    }

    @Test("merge: a completion the server no longer holds (a restore took it back) is sent again, though the write's base had it too")
    func completionTheServerLostIsSent() {
        // Given a write recording a completion on a state that was completed already, and a server
        // restored to an older state meanwhile
        let base = OfflineFixture.progress(watched: 300, completed: true, version: 5)
        let server = OfflineFixture.progress(watched: 50, completed: false, version: 1)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 300, "completed": true]

        let body = resent(resolve(.merge, Self.progress, base: base, local: local, server: server, version: 1))

        // Then what the write says goes, raised as far as either side went
        #expect(body?["completed"] as? Bool == true)
        #expect(body?["watched_seconds"] as? Int == 300)
    }

    @Test("merge: progress watched on both sides keeps the server's larger value, leaving nothing to send")
    func progressServerLargerAccepts() {
        let base = OfflineFixture.progress(watched: 60, version: 1)
        let server = OfflineFixture.progress(watched: 300, version: 2)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 120]

        #expect(resolve(.merge, Self.progress, base: base, local: local, server: server, version: 2) == .acceptServer)
    }

    @Test("merge: when the merged result equals the server's state there is nothing to send")
    func nothingToSendAcceptsServer() {
        let base = OfflineFixture.user(firstName: "Ada", version: 1)
        let server = OfflineFixture.user(firstName: "Ana", version: 2)

        let resolution = resolve(.merge, Self.profile, base: base, local: ["first_name": "Ana"], server: server, version: 2)

        #expect(resolution == .acceptServer)
    }

    @Test("merge: without a base, progress still merges by meaning")
    func progressWithoutBase() {
        // Given a first write meeting another device's record
        let server = OfflineFixture.progress(watched: 500, completed: false, version: 4)
        let local: [String: Any] = ["lesson_id": "lesson-1", "watched_seconds": 90, "completed": true]

        let resolution = resolve(.merge, Self.progress, base: nil, local: local, server: server, version: 4)

        // Then the larger watch time and the completion are sent on the server's version
        let body = resent(resolution)
        #expect(body?["watched_seconds"] as? Int == 500)
        #expect(body?["completed"] as? Bool == true)
        #expect(body?["lesson_id"] as? String == "lesson-1")
        #expect(resentVersion(resolution) == 4)
    }

    @Test("merge: members the server owns are never sent back")
    func serverOwnedMembersDropped() {
        let base = OfflineFixture.user(firstName: "Ada", version: 1)
        let server = OfflineFixture.user(firstName: "Ada", version: 2)
        let local: [String: Any] = ["first_name": "Ana", "email": "x@example.com", "role": "admin", "version": 1]

        let body = resent(resolve(.merge, Self.profile, base: base, local: local, server: server, version: 2))

        #expect(body?.keys.sorted() == ["first_name"])
    }
}
