import Foundation

/// How a resource's conflicting writes are settled: the strategy it uses unless the app's
/// ``ConflictPolicy`` says otherwise, and, for ``ConflictStrategy/merge``, what each field means.
/// Each resource's descriptor declares one; ``ConflictResolver`` applies it without knowing any
/// resource's fields.
struct ConflictRule: Sendable {
    /// How a field changed on both sides merges.
    enum FieldMerge: Sendable {
        /// The larger number (a watch time only grows).
        case larger
        /// True if either side is true (a completion is never undone).
        case either
    }

    /// The strategy when the app's policy names none for the resource.
    var strategy: ConflictStrategy = .serverWins
    /// Members the server owns besides `id`, `version`, `created_at` and `updated_at`: never sent back.
    var serverOwned: Set<String> = []
    /// Members the server owns that name the record a write is for (a progress write's `lesson_id`):
    /// sent back as they are, and never a reason to resend.
    var identity: Set<String> = []
    /// The fields changed on both sides that merge by meaning; every other such field keeps the
    /// local value (the learner's latest intent).
    var bothChanged: [String: FieldMerge] = [:]
    /// Whether a first write (no base) may meet a record another device created: the server then
    /// answers 428, the outbox fetches the record and merges, and every field counts as changed on
    /// both sides so it merges by meaning.
    var firstWritesMerge = false

    /// Members every resource's server owns.
    static let alwaysServerOwned: Set<String> = ["id", "version", "created_at", "updated_at"]

    /// The merged value of `key`, changed on both sides.
    func merge(_ key: String, local: Any, server: Any?) -> Any {
        switch bothChanged[key] {
        case .larger?:
            return max((local as? NSNumber)?.intValue ?? 0, (server as? NSNumber)?.intValue ?? 0)
        case .either?:
            return ((local as? Bool) ?? false) || ((server as? Bool) ?? false)
        case nil:
            return local
        }
    }

    /// Whether the member `key` of a local body is sent back in a merge.
    func sends(_ key: String) -> Bool {
        identity.contains(key) || !(Self.alwaysServerOwned.contains(key) || serverOwned.contains(key))
    }
}
