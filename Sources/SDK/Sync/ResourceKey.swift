import Foundation

/// What a queued write changes: the key its outbox items, dead letters and conflicts carry.
///
/// A key is a resource's ``type`` and the ``ids`` that name one resource of it; each resource's
/// descriptor builds its keys (``progress(course:lesson:)``, ``profile``,
/// ``enrollment(course:)``). Writes of one key replay in order, one at a time; writes of
/// different keys may go side by side. The store keeps a key as text (``description``) and reads
/// it back with ``init(_:)``.
public struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// The kind of resource written.
    public let type: ResourceType
    /// The ids that name the resource among those of its type, outermost first (a progress key:
    /// its course, then its lesson); empty for the signed-in user's profile.
    public let ids: [String]

    /// The key of the resource of `type` named by `ids`. The descriptor of `type` says how many ids
    /// its keys have; ``init(_:)`` refuses text whose count differs.
    init(_ type: ResourceType, ids: [String] = []) {
        self.type = type
        self.ids = ids
    }

    /// The key as the store keeps it: `<type>/<id>/…`. Ids are escaped (`%` as `%25`, `/` as
    /// `%2F`), so any id reads back as itself.
    public var description: String {
        Self.prefix(type, ids: ids, open: false)
    }

    /// The key `text` names (as ``description`` wrote it), or `nil` when it names none: a type
    /// that takes no writes, the wrong number of ids, an empty or badly escaped id.
    public init?(_ text: String) {
        guard let key = Self.parse(text), let descriptor = SyncedResources.descriptor(of: key.type),
            descriptor.keyIDCount == key.ids.count
        else { return nil }
        self = key
    }

    /// The course the write is about, when it is about one.
    public var courseID: String? {
        descriptor?.courseID(of: self)
    }

    /// The descriptor of the key's type; `nil` for a type this SDK does not know.
    var descriptor: (any SyncedResource.Type)? {
        SyncedResources.descriptor(of: type)
    }

    /// The key whose queued creation this one waits for (see <doc:OfflineSync>).
    var prerequisite: ResourceKey? {
        descriptor?.prerequisite(of: self)
    }

    /// The stored form of the key of `type` and `ids`; with `open`, followed by `/`, the prefix of
    /// every key under those ids (`progress/<course>/` holds the course's progress keys and no
    /// other course's).
    static func prefix(_ type: ResourceType, ids: [String], open: Bool = true) -> String {
        var text = type.rawValue
        for id in ids { text += "/" + escape(id) }
        return open ? text + "/" : text
    }

    /// The type and ids `text` names, whatever the type: how a stored key is read before its
    /// descriptor is known.
    static func parse(_ text: String) -> ResourceKey? {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        guard let type = parts.first, !type.isEmpty else { return nil }
        var ids: [String] = []
        for part in parts.dropFirst() {
            guard let id = unescape(part) else { return nil }
            ids.append(id)
        }
        return ResourceKey(ResourceType(rawValue: type), ids: ids)
    }

    private static func escape(_ id: String) -> String {
        // Ids are almost always plain (UUIDs): leave them untouched without a Foundation call.
        guard id.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    private static func unescape(_ part: String) -> String? {
        guard !part.isEmpty else { return nil }
        guard part.utf8.contains(UInt8(ascii: "%")) else { return part }
        return part.removingPercentEncoding
    }
}
