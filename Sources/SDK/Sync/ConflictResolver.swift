import Foundation

/// How a version conflict on a resource is settled.
public enum ConflictStrategy: String, Sendable, Codable, CaseIterable {
    /// Drop the local write; the server's state becomes the local state.
    case serverWins
    /// Re-apply the local write on top of the server's current version.
    case clientWins
    /// Three-way merge: fields changed only locally win; fields changed only on the server stay;
    /// fields changed on both sides follow the resource's rule (see ``ConflictResolver``).
    case merge
    /// Park the conflict; the app lists it and chooses.
    case manual
}

/// The strategy per resource kind. Defaults: progress and profile merge, everything else lets
/// the server win.
public struct ConflictPolicy: Sendable, Equatable {
    /// How a conflict on lesson progress is settled; `merge` by default, which keeps the
    /// larger `watched_seconds` and any completion.
    public var progress: ConflictStrategy
    /// How a conflict on the user's profile is settled; `merge` by default, where the
    /// learner's own edit wins a field both sides changed.
    public var profile: ConflictStrategy
    /// How a conflict on any other resource (today: enrollments) is settled; the server wins
    /// by default.
    public var other: ConflictStrategy

    /// A policy for ``EduGoClient``: pass only the strategies you want to differ from the defaults.
    ///
    /// ```swift
    /// let policy = ConflictPolicy(profile: .manual)  // let the user settle profile conflicts
    /// ```
    ///
    /// - Parameters:
    ///   - progress: the strategy for lesson progress.
    ///   - profile: the strategy for the user's profile.
    ///   - other: the strategy for every other resource.
    public init(progress: ConflictStrategy = .merge, profile: ConflictStrategy = .merge, other: ConflictStrategy = .serverWins) {
        self.progress = progress
        self.profile = profile
        self.other = other
    }

    func strategy(for resource: ResourceKey) -> ConflictStrategy {
        switch resource {
        case .progress: progress
        case .profile: profile
        case .enrollment: other
        }
    }
}

/// Decides the outcome of a conflict: a pure function of the strategy and three JSON objects.
///
/// Progress merges by meaning when both sides changed a field: `watched_seconds` takes the
/// larger value, `completed` is true if either side completed (the server keeps the earliest
/// `completed_at`). Profile fields changed on both sides keep the local value: the learner's
/// latest intent on their own profile.
public enum ConflictResolver {
    /// What to do with the conflicting write.
    public enum Resolution: Equatable, Sendable {
        /// Drop the write and keep the server's state.
        case acceptServer
        /// Send `body` again, based on `version`.
        case resend(body: Data, version: Int)
        /// Store the conflict for the app.
        case park
    }

    /// Members the server owns; never sent back.
    static let serverOwned: Set<String> = [
        "id", "version", "created_at", "updated_at", "completed_at", "email", "email_verified", "role", "course_id",
        "user_id", "teacher_id", "lesson_count",
    ]

    /// Settles one conflict: what to do with a write whose base version the server no longer has.
    ///
    /// It does no I/O, so the same inputs always give the same outcome; the ``SyncEngine``'s drains
    /// call it for each conflicting write, and a test can call it to see what a strategy would do.
    ///
    /// - Parameters:
    ///   - strategy: how conflicts on this kind of resource are settled (see ``ConflictPolicy``).
    ///   - resource: the resource written; progress merges its fields by meaning.
    ///   - base: the server's JSON the write was based on (`nil` for a first write).
    ///   - local: the JSON body this client wanted to write.
    ///   - server: the server's current JSON.
    ///   - serverVersion: the server's current version: a resend is based on it.
    /// - Returns: ``Resolution/acceptServer`` when the server wins or already holds everything the write
    ///   wanted, ``Resolution/resend(body:version:)`` with the body to send again, or ``Resolution/park``
    ///   for the `manual` strategy.
    public static func resolve(
        strategy: ConflictStrategy, resource: ResourceKey, base: Data?, local: Data?, server: Data?, serverVersion: Int
    ) -> Resolution {
        switch strategy {
        case .serverWins:
            return .acceptServer
        case .manual:
            return .park
        case .clientWins:
            return .resend(body: local ?? Data("{}".utf8), version: serverVersion)
        case .merge:
            let baseObject = JSONObject.decode(base)
            let localObject = JSONObject.decode(local) ?? [:]
            let serverObject = JSONObject.decode(server) ?? [:]
            var merged: [String: Any] = [:]
            var differsFromServer = false
            for (key, localValue) in localObject where !serverOwned.contains(key) || key == "lesson_id" {
                let serverValue = serverObject[key]
                let localChanged = baseObject.map { !JSONObject.equal($0[key], localValue) } ?? true
                // Without a base (a first progress write meeting another device's), both sides count
                // as changed so progress still merges by meaning.
                let serverChanged = baseObject.map { !JSONObject.equal($0[key], serverValue) }
                    ?? resource.isProgress
                let value: Any?
                switch (localChanged, serverChanged) {
                case (true, false): value = localValue
                case (false, _): value = serverValue
                case (true, true): value = bothChanged(resource: resource, key: key, local: localValue, server: serverValue)
                }
                if let value {
                    merged[key] = value
                    if !JSONObject.equal(value, serverValue) && key != "lesson_id" { differsFromServer = true }
                }
            }
            guard differsFromServer else { return .acceptServer }
            return .resend(body: JSONObject.encode(merged), version: serverVersion)
        }
    }

    private static func bothChanged(resource: ResourceKey, key: String, local: Any, server: Any?) -> Any? {
        guard resource.isProgress else { return local }
        switch key {
        case "watched_seconds":
            return max((local as? NSNumber)?.intValue ?? 0, (server as? NSNumber)?.intValue ?? 0)
        case "completed":
            return ((local as? Bool) ?? false) || ((server as? Bool) ?? false)
        default:
            return local
        }
    }
}
