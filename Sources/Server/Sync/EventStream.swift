import EduGoServerStore
import Foundation
import Hummingbird
import NIOCore

/// One open `GET /v1/sync/events` stream, written as server-sent events.
///
/// The stream never carries data: an event `changed` says "changes you may see were committed;
/// pull from your cursor", and its `id` is the feed's cursor after them. What a client missed
/// while disconnected is never lost, because the pull, not the stream, is the source of truth.
///
/// - On opening: an event at once unless the client's `Last-Event-ID` is a cursor of this
///   caller's that nothing it may see has passed since; `reset` first when that cursor is of
///   another timeline (the tenant's data was replaced since).
/// - When the tenant's timeline changes under an open stream (a snapshot restored): `reset`,
///   then a `changed` whose `id` is of the new timeline.
/// - Then: at most one event per ``coalescing`` interval for whatever gathered meanwhile; a
///   keep-alive comment whenever the hub asks for one.
/// - Before every event the session is checked again, so a revoked session, a deleted user or a
///   changed role ends the stream with an event `ended` instead of another `changed`.
/// - The stream holds no tenant database between its reads: each read leases the tenant's store
///   from the registry and lets go of it, so a stream open for minutes never keeps a database
///   that the registry dropped (and its descriptors) alive.
struct EventStream: Sendable {
    let hub: ChangeHub
    let subscription: ChangeHub.Subscription
    /// Who the stream is for: the caller's tenant, user, role and session (not their store).
    let caller: Caller
    /// Leases the caller's tenant store for one read.
    let store: @Sendable (TenantID) async throws -> TenantStore
    /// The `Last-Event-ID` the client reconnected with.
    let lastEventID: String?
    /// The least time between two events of one stream.
    let coalescing: Duration
    /// Seals the cursors the events carry and opens `Last-Event-ID`.
    let cursors: CursorSeal
    /// The server's clock.
    let now: @Sendable () -> Date

    /// The parts of an ``Identity`` a stream keeps: everything but the store.
    struct Caller: Sendable {
        let tenantID: TenantID
        let userID: String
        let role: UserRecord.Role
        let sessionID: String
        /// The dev backend acting as the user: no session stands behind the stream.
        let impersonated: Bool

        init(_ identity: Identity) {
            tenantID = identity.tenantID
            userID = identity.userID
            role = identity.role
            sessionID = identity.sessionID
            impersonated = identity.impersonated
        }

        var audience: ChangeAudience { ChangeAudience(userID: userID, isAdmin: role == .admin) }
    }

    /// Writes the stream until it ends; the hub forgets it when this returns.
    func write(to writer: inout any ResponseBodyWriter) async throws {
        defer { hub.remove(subscription.id) }
        guard hub.claim(subscription.id) else { return }
        try await writer.write(Self.buffer(": connected\nretry: 2000\n\n"))
        var position = try await store(caller.tenantID).feedPosition(for: caller.audience)
        var sent = position.newestHeard
        var timeline = position.timeline
        switch resumed(at: position) {
        case .current(let seq):
            sent = seq
            hub.noteResumed(subscription.id, at: seq, of: timeline, now: now())
        case .otherTimeline:
            try await writer.write(Self.resetEvent)
            try await send(sent, of: timeline, to: &writer)
        case .behind:
            try await send(sent, of: timeline, to: &writer)
        }
        for await _ in subscription.wakes {
            let pending = hub.take(subscription.id)
            if let reason = pending.end {
                try await writer.write(Self.endEvent(reason))
                return
            }
            let announces = pending.lookAgain || (pending.newest ?? 0) > sent
            if announces || pending.checkSession {
                guard try await sessionStands() else {
                    try await writer.write(Self.endEvent(.sessionEnded))
                    return
                }
            }
            if announces {
                if pending.lookAgain {
                    position = try await store(caller.tenantID).feedPosition(for: caller.audience)
                    if position.timeline != timeline {
                        // The tenant's data was replaced: the client's cursor is of a history
                        // that no longer exists. Said once, before the first event of the new one.
                        timeline = position.timeline
                        try await writer.write(Self.resetEvent)
                    }
                    sent = position.newestHeard
                } else if let newest = pending.newest {
                    sent = newest
                }
                try await send(sent, of: timeline, to: &writer)
                try await Task.sleep(for: coalescing)
            } else if pending.heartbeat {
                try await writer.write(Self.buffer(": keep-alive\n\n"))
            }
        }
    }

    /// Where the client's `Last-Event-ID` stands against the feed.
    private enum Resumption {
        /// A cursor of this caller's on the current timeline that nothing it may see has passed.
        case current(Int64)
        /// A cursor of this caller's on another timeline: the tenant's data was replaced since.
        case otherTimeline
        /// No cursor, another caller's, or one the caller must pull after.
        case behind
    }

    private func resumed(at position: TenantStore.FeedPosition) -> Resumption {
        guard let lastEventID, let cursor = cursors.open(lastEventID), cursor.base == nil,
            cursor.tenant == caller.tenantID.rawValue, cursor.user == caller.userID
        else { return .behind }
        guard cursor.timeline == position.timeline else { return .otherTimeline }
        guard cursor.role == caller.role.rawValue,
            cursor.seq >= position.prunedThrough, cursor.seq <= position.head, cursor.seq >= position.newestHeard
        else { return .behind }
        return .current(cursor.seq)
    }

    /// Whether the stream's session is still live (for the dev backend acting as the user, which
    /// has none: whether the user is), its user still there with the same role.
    private func sessionStands() async throws -> Bool {
        let store = try await store(caller.tenantID)
        let user =
            caller.impersonated
            ? try await store.user(actedAs: caller.userID)
            : try await store.user(inLiveSession: caller.sessionID, userID: caller.userID)
        return user?.role == caller.role
    }

    private func send(_ seq: Int64, of timeline: String, to writer: inout any ResponseBodyWriter) async throws {
        let cursor = cursors.seal(
            try await store(caller.tenantID).streamCursor(userID: caller.userID, role: caller.role, timeline: timeline, seq: seq))
        try await writer.write(Self.buffer("event: changed\nid: \(cursor)\ndata: {\"cursor\":\"\(cursor)\"}\n\n"))
        hub.eventSent()
    }

    /// Says the tenant's timeline changed (a snapshot restore, an import): every cursor the client
    /// holds is of the old one; its next pull answers `410` (`timeline_changed`) and it base-syncs.
    /// No `id`: a cursor of the new timeline comes with the `changed` that follows.
    static let resetEvent = buffer("event: reset\ndata: {\"reason\":\"timeline_changed\"}\n\n")

    static func endEvent(_ reason: ChangeHub.EndReason) -> ByteBuffer {
        buffer("event: ended\ndata: {\"reason\":\"\(reason.rawValue)\"}\n\n")
    }

    static func buffer(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }
}
