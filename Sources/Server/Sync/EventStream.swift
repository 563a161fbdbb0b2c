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
///   caller's that nothing it may see has passed since.
/// - Then: at most one event per ``coalescing`` interval for whatever gathered meanwhile; a
///   keep-alive comment whenever the hub asks for one.
/// - Before every event the session is checked again, so a revoked session, a deleted user or a
///   changed role ends the stream with an event `ended` instead of another `changed`.
struct EventStream: Sendable {
    let hub: ChangeHub
    let subscription: ChangeHub.Subscription
    let identity: Identity
    /// The `Last-Event-ID` the client reconnected with.
    let lastEventID: String?
    /// The least time between two events of one stream.
    let coalescing: Duration

    /// Writes the stream until it ends; the hub forgets it when this returns.
    func write(to writer: inout any ResponseBodyWriter) async throws {
        defer { hub.remove(subscription.id) }
        guard hub.claim(subscription.id) else { return }
        try await writer.write(Self.buffer(": connected\nretry: 2000\n\n"))
        let position = try await identity.store.feedPosition(for: ChangeAudience(identity))
        var sent = position.newestHeard
        if let current = resumedCursor(at: position) {
            sent = current
        } else {
            try await send(sent, to: &writer)
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
                    sent = try await identity.store.feedPosition(for: ChangeAudience(identity)).newestHeard
                } else if let newest = pending.newest {
                    sent = newest
                }
                try await send(sent, to: &writer)
                try await Task.sleep(for: coalescing)
            } else if pending.heartbeat {
                try await writer.write(Self.buffer(": keep-alive\n\n"))
            }
        }
    }

    /// The sequence the client's `Last-Event-ID` stands at, when it is this caller's cursor and
    /// nothing the caller may see came after it; `nil` when the client must be told to pull.
    private func resumedCursor(at position: TenantStore.FeedPosition) -> Int64? {
        guard let lastEventID, let cursor = ChangeCursor(encoded: lastEventID), cursor.base == nil,
            cursor.tenant == identity.tenantID.rawValue, cursor.user == identity.userID,
            cursor.role == identity.role.rawValue,
            cursor.seq >= position.prunedThrough, cursor.seq <= position.head, cursor.seq >= position.newestHeard
        else { return nil }
        return cursor.seq
    }

    /// Whether the stream's session is still live, its user still there with the same role.
    private func sessionStands() async throws -> Bool {
        let user = try await identity.store.user(inLiveSession: identity.sessionID, userID: identity.userID)
        return user?.role == identity.role
    }

    private func send(_ seq: Int64, to writer: inout any ResponseBodyWriter) async throws {
        let cursor = identity.store.streamCursor(for: identity, seq: seq)
        try await writer.write(Self.buffer("event: changed\nid: \(cursor)\ndata: {\"cursor\":\"\(cursor)\"}\n\n"))
        hub.eventSent()
    }

    static func endEvent(_ reason: ChangeHub.EndReason) -> ByteBuffer {
        buffer("event: ended\ndata: {\"reason\":\"\(reason.rawValue)\"}\n\n")
    }

    static func buffer(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }
}
