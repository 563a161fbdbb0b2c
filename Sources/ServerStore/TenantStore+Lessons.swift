import Foundation
import GRDB

/// A new lesson as its course's teacher or an admin sends it.
package struct LessonDraft: Sendable {
    package var title: String
    package var content: String
    /// `nil`: after the course's last lesson.
    package var order: Int?
    package var durationMinutes: Int
    package var videoUrl: String?

    package init(title: String, content: String, order: Int? = nil, durationMinutes: Int, videoUrl: String? = nil) {
        self.title = title
        self.content = content
        self.order = order
        self.durationMinutes = durationMinutes
        self.videoUrl = videoUrl
    }
}

/// What a change to a lesson asks for: each member `nil` (or `.absent`) when the body left it out.
package struct LessonChanges: Sendable {
    package var title: String?
    package var content: String?
    package var order: Int?
    package var durationMinutes: Int?
    package var videoUrl: Patch<String> = .absent

    package init(title: String? = nil, content: String? = nil, order: Int? = nil, durationMinutes: Int? = nil, videoUrl: Patch<String> = .absent) {
        self.title = title
        self.content = content
        self.order = order
        self.durationMinutes = durationMinutes
        self.videoUrl = videoUrl
    }
}

extension TenantStore {
    /// The lessons of a course `identity` may see, in order.
    package func lessons(ofCourse courseID: String, visibleTo identity: Identity) async throws -> [LessonRecord] {
        try await database.read { db in
            _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            let list = LessonListQuery.lessons(ofCourse: courseID)
            return try LessonRecord.fetchAll(db.cachedStatement(sql: list.sql), arguments: list.arguments)
        }
    }

    /// A lesson of a course `identity` may see.
    package func lesson(_ lessonID: String, ofCourse courseID: String, visibleTo identity: Identity) async throws -> LessonRecord {
        try await database.read { db in
            _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            return try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
        }
    }

    /// Adds a lesson to a course `identity` may edit (after its last lesson unless the draft
    /// names an order); the course's version moves too (its lesson count changed).
    package func createLesson(
        _ draft: LessonDraft, inCourse courseID: String, by identity: Identity, now: Date
    ) async throws -> LessonRecord {
        let id = RecordID.make()
        return try await database.writer.write { db -> LessonRecord in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            let last = try Int.fetchOne(
                db, sql: "SELECT MAX(\"order\") FROM lessons WHERE course_id = ?", arguments: [courseID]) ?? 0
            let lesson = LessonRecord(
                id: id, courseId: courseID, title: draft.title, content: draft.content,
                order: draft.order ?? min(last + 1, 10_000), durationMinutes: draft.durationMinutes,
                videoUrl: draft.videoUrl, version: 1, createdAt: now, updatedAt: now)
            try lesson.insert(db)
            try CourseAccess.touch(db, courseID: courseID, now: now)
            return lesson
        }
    }

    /// Changes a lesson of a course `identity` may edit, based on the version `base` names.
    package func updateLesson(
        _ lessonID: String, ofCourse courseID: String, by identity: Identity, changes: LessonChanges,
        base: VersionPrecondition, now: Date
    ) async throws -> LessonRecord {
        try await database.writer.write { db -> LessonRecord in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            var lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
            try base.check(currentVersion: lesson.version, current: lesson)
            let before = lesson
            if let title = changes.title { lesson.title = title }
            if let content = changes.content { lesson.content = content }
            if let order = changes.order { lesson.order = order }
            if let duration = changes.durationMinutes { lesson.durationMinutes = duration }
            changes.videoUrl.apply(to: &lesson.videoUrl)
            if !lesson.hasSameContent(as: before) {
                lesson.version += 1
                lesson.updatedAt = now
                try lesson.update(db)
            }
            return lesson
        }
    }

    /// Deletes a lesson of a course `identity` may edit; the course's version moves too.
    package func deleteLesson(_ lessonID: String, ofCourse courseID: String, by identity: Identity, now: Date) async throws {
        try await database.writer.write { db in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            let lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
            try lesson.delete(db)
            try CourseAccess.touch(db, courseID: courseID, now: now)
        }
    }

    /// The lesson, if it belongs to the course (a statement the connection keeps prepared).
    package static func fetchLesson(_ db: Database, lessonID: String, courseID: String) throws -> LessonRecord {
        let statement = try db.cachedStatement(sql: "SELECT * FROM lessons WHERE id = ?")
        guard let lesson = try LessonRecord.fetchOne(statement, arguments: [lessonID]), lesson.courseId == courseID else {
            throw StoreError.notFound(.lesson)
        }
        return lesson
    }
}

extension LessonRecord {
    package func hasSameContent(as other: LessonRecord) -> Bool {
        title == other.title && content == other.content && order == other.order
            && durationMinutes == other.durationMinutes && videoUrl == other.videoUrl
    }
}
