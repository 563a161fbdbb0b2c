import Foundation

/// The signed-in user's profile: cached as `me`; edits are queued under `profile` and merge on a
/// conflict, the learner's own edit winning a field both sides changed.
enum ProfileResource: SyncedResource {
    static let type = ResourceType.profile
    static let keyIDCount: Int? = 0
    static let conflicts = ConflictRule(strategy: .merge, serverOwned: ["email", "email_verified", "role"])

    static func entityID(id: String, courseID: String?) -> String { "me" }
    static func entityID(of key: ResourceKey) -> String { "me" }

    static func entity(_ user: User, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(user, kind: type, id: "me", version: user.version, at: date)
    }

    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { .profile }
}

extension ResourceType {
    /// The signed-in user's profile (`profile`).
    public static let profile = ResourceType(rawValue: "profile")
}

extension ResourceKey {
    /// The signed-in user's profile: `profile`.
    public static var profile: ResourceKey { ResourceKey(.profile) }
}

extension LocalRead<Cached<User>?> {
    /// The profile with queued edits; `nil` before it was ever fetched.
    static var profile: Self { ProfileResource.localValue(id: "me", writes: .profile) }
}
