import Foundation
import GRDB

/// The signed-in user's profile (`/v1/users/me`): local first, edits synced through the outbox.
public struct ProfileRepository: Sendable {
    let store: OfflineStore
    let engine: SyncEngine

    /// The profile with local edits; `nil` before it was ever fetched. Asks for a background refresh.
    public func me() async throws -> Cached<User>? {
        engine.requestRefresh(.profile)
        guard let profile = try await store.writer.read({ db in try Self.read(db) }) else { return nil }
        return await engine.marked(profile, for: .profile)
    }

    /// The profile now and after every change to it; `nil` before it was ever fetched.
    public func observe() -> LocalObservation<Cached<User>?> {
        let openedAt = engine.openedAt
        return LocalObservation(
            ValueObservation.tracking { db in try Self.read(db)?.marked(nil, openedAt: openedAt) }
                .removeDuplicates().values(in: store.writer))
    }

    /// Changes the learner's name: visible at once, sent when the server is reachable.
    @discardableResult
    public func update(firstName: String? = nil, lastName: String? = nil) async throws -> User? {
        var body: [String: Any] = [:]
        if let firstName { body["first_name"] = firstName }
        if let lastName { body["last_name"] = lastName }
        guard !body.isEmpty else { return try await me()?.value }
        let server = try await store.writer.read { db in try LocalView.entity(db, kind: .profile, id: "me") }
        let write = PendingWrite(
            resource: "profile", operation: .update, endpoint: .Users.updateMe, body: JSONObject.encode(body),
            baseVersion: server?.version, baseJson: server?.json)
        try await engine.outbox.enqueue(write)
        engine.writeEnqueued()
        await engine.refreshStatus()
        return try await store.writer.read { db in try Self.read(db)?.value }
    }

    static func read(_ db: Database) throws -> Cached<User>? {
        let server = try LocalView.entity(db, kind: .profile, id: "me")
        let pending = try OutboxItem.filter(OutboxItem.Columns.resource == "profile").order(OutboxItem.Columns.id).fetchAll(db)
        guard let server, let json = LocalView.overlay(server.json, pending) else { return nil }
        return Cached(
            value: try JSONCoding.decoder.decode(User.self, from: json), hasPendingWrites: !pending.isEmpty,
            fetchedAt: server.fetchedAt)
    }
}
