import Foundation
import GRDB

/// One read of the local store, named for what it reads: run once (``OfflineStore/read(_:)``) or
/// observed (``OfflineStore/observe(_:)``). The repositories say what they need; each resource's
/// descriptor names its reads (`LocalRead.progress(courseID:now:)` …) on top of the generic ones
/// below; the SQL stays in `Store/`.
struct LocalRead<Value: Sendable & Equatable>: Sendable {
    let fetch: @Sendable (Database) throws -> Value

    /// The same read with `transform` applied to its value.
    func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> LocalRead<Other> {
        LocalRead<Other> { [fetch] db in transform(try fetch(db)) }
    }
}

extension SyncedResource {
    /// Every cached value of this resource (under `parentID` when given), in its sort order.
    static func localValues(parentID: String? = nil) -> LocalRead<Cached<[Wire]>> {
        LocalRead { db in try LocalView.values(db, Self.self, parentID: parentID, writesUnder: nil, now: .distantPast) }
    }

    /// Every cached value of this resource (under `parentID` when given), with the writes queued
    /// under the key prefix `prefix` laid over them; a value with only queued writes starts from
    /// the descriptor's placeholder dated `now`.
    static func localValues(
        parentID: String? = nil, writesUnder prefix: String, now: @escaping @Sendable () -> Date
    ) -> LocalRead<Cached<[Wire]>> {
        LocalRead { db in try LocalView.values(db, Self.self, parentID: parentID, writesUnder: prefix, now: now()) }
    }

    /// The cached value with entity id `id`, with the writes queued under `key` laid over it;
    /// `nil` when it was never cached (or a queued write deletes it).
    static func localValue(id: String, writes key: ResourceKey? = nil) -> LocalRead<Cached<Wire>?> {
        LocalRead { db in try LocalView.value(db, Self.self, id: id, writes: key) }
    }

    /// The ids of the cached entities of this resource, with the ones queued writes create added
    /// and the ones they delete removed.
    static func localIDs() -> LocalRead<Cached<Set<String>>> {
        LocalRead { db in try LocalView.ids(db, Self.self, writesUnder: ResourceKey.prefix(type, ids: [])) }
    }
}

extension OfflineStore {
    /// Runs `read` once, in one read transaction.
    ///
    /// - Throws: ``OfflineSessionError/signedOut`` once the user signed out, or a database error.
    func read<Value>(_ read: LocalRead<Value>) async throws -> Value {
        try await ofSignedInUser { try await writer.read(read.fetch) }
    }

    /// `read`'s value now and after every change to what it read (equal values delivered once).
    func observe<Value>(_ read: LocalRead<Value>) -> LocalObservation<Value> {
        LocalObservation(ValueObservation.tracking(read.fetch).removeDuplicates().values(in: writer))
    }
}
