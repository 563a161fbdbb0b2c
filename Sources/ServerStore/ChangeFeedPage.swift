/// One entry of the change feed: an entity's current state, or a tombstone for one the caller can
/// no longer see.
package struct FeedChange: Sendable {
    /// The entity's name (``FeedEntity/name``).
    package var entity: String
    package var id: String
    package var courseID: String?
    /// Its current state as its descriptor read it; `nil` for a tombstone.
    package var state: (any Sendable)?

    package init(entity: String, id: String, courseID: String?, state: (any Sendable)?) {
        self.entity = entity
        self.id = id
        self.courseID = courseID
        self.state = state
    }

    /// The entity and id the change is about.
    package var key: (entity: String, id: String) { (entity, id) }
}

/// One page of the change feed.
package struct ChangeFeedPage: Sendable {
    package var changes: [FeedChange]
    /// Where the next pull starts (the HTTP layer seals it).
    package var cursor: ChangeCursor
    /// Whether more changes wait after ``cursor``: pull again at once.
    package var hasMore: Bool
    /// Whether the next page continues the base sync this page belongs to.
    package var baseContinues = false

    package init(changes: [FeedChange], cursor: ChangeCursor, hasMore: Bool, baseContinues: Bool = false) {
        self.changes = changes
        self.cursor = cursor
        self.hasMore = hasMore
        self.baseContinues = baseContinues
    }
}
