import Foundation

/// How a resource's conflicting writes are settled: the strategy it uses unless the app's
/// ``ConflictPolicy`` says otherwise, and, for ``ConflictStrategy/merge``, what each field means.
/// Each resource's descriptor declares one; ``ConflictResolver`` applies it without knowing any
/// resource's fields.
struct ConflictRule: Sendable, Equatable {
    /// How a field that only moves one way merges.
    enum FieldMerge: Sendable, Equatable {
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
    /// The fields that only move one way (a watch time grows, a completion is never undone): a
    /// write made on a state that is further along is raised to it, whether only this side or
    /// both changed it, so no device takes back what another recorded. Every other field changed
    /// on both sides keeps the local value (the learner's latest intent).
    var monotonic: [String: FieldMerge] = [:]
    /// Whether a first write (no base) may meet a record another device created: the server then
    /// answers 428, and the outbox fetches the record and merges with it.
    var firstWritesMerge = false

    /// Members every resource's server owns.
    static let alwaysServerOwned: Set<String> = ["id", "version", "created_at", "updated_at"]

    /// The merged value of `key`: the further along of the two for a ``monotonic`` field, the
    /// local one for any other.
    func merge(_ key: String, local: Any, server: Any?) -> Any {
        switch monotonic[key] {
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

    /// `local` with each ``monotonic`` member raised to `other`'s where that is further along: a
    /// write never takes back what the state it is made on, or the unsent write it joins, holds.
    func raised(_ local: Data?, over other: Data?) -> Data? {
        guard !monotonic.isEmpty, var object = JSONObject.decode(local), let otherObject = JSONObject.decode(other) else {
            return local
        }
        var changed = false
        for key in monotonic.keys {
            guard let value = object[key], let otherValue = otherObject[key], !(otherValue is NSNull) else { continue }
            let merged = merge(key, local: value, server: otherValue)
            if !JSONObject.equal(merged, value) {
                object[key] = merged
                changed = true
            }
        }
        return changed ? JSONObject.encode(object) : local
    }
}
