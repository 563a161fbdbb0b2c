import Foundation
import GRDB

/// The server's state of single resources, stored as a refresh or a sign-in fetched it (lists
/// arrive through the pull: ``applyPull(_:after:cursor:replacing:finished:at:)``).
extension OfflineStore {
    /// Stores one course as the server sent it.
    func save(_ course: Course, at now: Date) async throws {
        try await writer.write { db in try CourseResource.entity(course, courseID: nil, at: now).store(db) }
    }

    /// Stores the signed-in user's profile.
    func saveProfile(_ user: User, at now: Date) async throws {
        try await writer.write { db in
            try ProfileResource.entity(user, courseID: nil, at: now).store(db)
        }
    }

    /// Removes a course the server no longer has from the local view, with what goes with it (its
    /// lessons, the learner's progress and enrollment in it); queued writes stay in the outbox,
    /// where they settle on their own.
    func forgetCourse(_ courseID: String) async throws {
        try await writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CourseResource.type.rawValue && CachedEntity.Columns.id == courseID)
                .deleteAll(db)
            _ = try Self.removeDependents(db, ofCourse: courseID)
        }
    }

    /// Removes the cached entities that go with the course `courseID` (each descriptor's
    /// ``SyncedResource/removedWithCourse``).
    ///
    /// - Returns: how many entities were removed.
    static func removeDependents(_ db: Database, ofCourse courseID: String) throws -> Int {
        var removed = 0
        for descriptor in SyncedResources.all {
            let column: String
            switch descriptor.removedWithCourse {
            case .none: continue
            case .parent: column = "parent_id"
            case .sameID: column = "id"
            }
            try db.cachedStatement(sql: "DELETE FROM entities WHERE kind = ? AND \(column) = ?")
                .execute(arguments: [descriptor.type.rawValue, courseID])
            removed += db.changesCount
        }
        return removed
    }
}
