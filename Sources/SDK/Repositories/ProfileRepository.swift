import Foundation

/// The signed-in user's profile (`/v1/users/me`): local first, edits synced through the outbox.
public struct ProfileRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// The profile with local edits; `nil` before it was ever fetched. Asks for a background refresh.
    public func me() async throws -> Cached<User>? {
        engine.requestRefresh(.profile)
        guard let profile = try await store.read(.profile) else { return nil }
        return await engine.marked(profile, for: .profile)
    }

    /// The profile now and after every change to it; `nil` before it was ever fetched.
    public func observe() -> LocalObservation<Cached<User>?> {
        let openedAt = engine.openedAt
        return store.observe(LocalRead.profile.map { $0?.marked(nil, openedAt: openedAt) })
    }

    /// Changes the learner's name: visible at once, sent when the server is reachable.
    ///
    /// - Parameters:
    ///   - firstName: the new first name, or `nil` to leave it.
    ///   - lastName: the new last name, or `nil` to leave it. With both `nil` nothing is queued.
    /// - Returns: the profile with the change, `nil` before the profile was ever fetched.
    @discardableResult
    public func update(firstName: String? = nil, lastName: String? = nil) async throws -> User? {
        var body: [String: Any] = [:]
        if let firstName { body["first_name"] = firstName }
        if let lastName { body["last_name"] = lastName }
        guard !body.isEmpty else { return try await me()?.value }
        try await engine.record(
            PendingWrite(resource: .profile, operation: .update, endpoint: .Users.updateMe, body: JSONObject.encode(body)))
        return try await store.read(.profile)?.value
    }
}
