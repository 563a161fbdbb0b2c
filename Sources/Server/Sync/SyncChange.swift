import EduGoServerStore
import Foundation

/// One entry of the change feed: an entity's current representation (the same as its `GET`),
/// or a tombstone for one the caller can no longer see.
struct SyncChange: Sendable, Encodable {
    var change: FeedChange

    /// The wire form of a change the store read.
    init(_ change: FeedChange) {
        self.change = change
    }

    enum CodingKeys: String, CodingKey {
        case type, op, id, courseId, data
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(change.entity, forKey: .type)
        try container.encode(change.id, forKey: .id)
        guard let state = change.state else {
            try container.encode("delete", forKey: .op)
            try container.encodeIfPresent(change.courseID, forKey: .courseId)
            return
        }
        guard let data = (state as? any SyncRepresentable)?.syncRepresentation else {
            throw EncodingError.invalidValue(
                state, .init(codingPath: encoder.codingPath, debugDescription: "\(change.entity) has no wire representation"))
        }
        try container.encode("upsert", forKey: .op)
        try container.encodeIfPresent(change.courseID, forKey: .courseId)
        try container.encode(data, forKey: .data)
    }
}

/// One page of the change feed.
struct SyncChangesPage: Sendable, Encodable {
    var changes: [SyncChange]
    /// Where the next pull starts (opaque).
    var cursor: String
    /// Whether more changes wait after ``cursor``: pull again at once.
    var hasMore: Bool
    /// Whether the next page continues the base sync this page belongs to (a client gathers a
    /// base sync's pages before it replaces its local state).
    var baseContinues = false

    /// The wire form of a page the store read, its cursor sealed by `cursors`.
    init(_ page: ChangeFeedPage, sealedBy cursors: CursorSeal) {
        changes = page.changes.map(SyncChange.init)
        cursor = cursors.seal(page.cursor)
        hasMore = page.hasMore
        baseContinues = page.baseContinues
    }
}
