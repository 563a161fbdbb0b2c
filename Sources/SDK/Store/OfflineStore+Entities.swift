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

    /// Removes a course the server no longer has from the local view, with its lessons and
    /// progress; queued writes stay in the outbox, where they settle on their own.
    func forgetCourse(_ courseID: String) async throws {
        try await writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.course.rawValue && CachedEntity.Columns.id == courseID)
                .deleteAll(db)
            try CachedEntity.filter(
                [CachedEntity.Kind.lesson.rawValue, CachedEntity.Kind.progress.rawValue].contains(CachedEntity.Columns.kind)
                    && CachedEntity.Columns.parentId == courseID
            ).deleteAll(db)
        }
    }
}
