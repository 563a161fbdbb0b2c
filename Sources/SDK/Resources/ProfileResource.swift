import Foundation

/// The signed-in user's profile: cached as `me`; queued profile writes are based on it.
enum ProfileResource: SyncedResource {
    static let wireType = "profile"
    static let kind = CachedEntity.Kind.profile

    static func entityID(id: String, courseID: String?) -> String { "me" }

    static func entity(_ user: User, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(user, kind: kind, id: "me", version: user.version, at: date)
    }

    static func resourceKey(id: String, courseID: String?) -> ResourceKey? { .profile }
}
