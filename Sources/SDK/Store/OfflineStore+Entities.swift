import Foundation
import GRDB

/// The server's state, stored as a refresh fetched it: each call one transaction, so a reader
/// sees the old collection or the new one, never half of each.
extension OfflineStore {
    /// Replaces every cached course with `courses` (the whole catalog, all pages).
    func replaceCourses(_ courses: [Course], at now: Date) async throws {
        try await writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.course.rawValue).deleteAll(db)
            for course in courses { try Self.entity(course, at: now).store(db) }
        }
    }

    /// Stores one course as the server sent it.
    func save(_ course: Course, at now: Date) async throws {
        try await writer.write { db in try Self.entity(course, at: now).store(db) }
    }

    /// Replaces the cached lessons of `courseID` with `lessons`.
    func replaceLessons(_ lessons: [Lesson], ofCourse courseID: String, at now: Date) async throws {
        try await writer.write { db in
            try CachedEntity.filter(
                CachedEntity.Columns.kind == CachedEntity.Kind.lesson.rawValue && CachedEntity.Columns.parentId == courseID
            ).deleteAll(db)
            for lesson in lessons {
                try CachedEntity.make(
                    lesson, kind: .lesson, id: lesson.id, parentID: courseID, sortKey: String(format: "%06d", lesson.order),
                    version: lesson.version, at: now
                ).store(db)
            }
        }
    }

    /// Stores the learner's progress records in `courseID`.
    func save(_ progress: CourseProgress, ofCourse courseID: String, at now: Date) async throws {
        try await writer.write { db in
            for lesson in progress.lessons {
                try CachedEntity.make(
                    lesson, kind: .progress, id: "\(courseID)/\(lesson.lessonId)", parentID: courseID, sortKey: lesson.lessonId,
                    version: lesson.version, at: now
                ).store(db)
            }
        }
    }

    /// Stores the signed-in user's profile.
    func saveProfile(_ user: User, at now: Date) async throws {
        try await writer.write { db in
            try CachedEntity.make(user, kind: .profile, id: "me", version: user.version, at: now).store(db)
        }
    }

    /// Replaces the cached enrollments with `enrolled` (all pages), storing each course too.
    func replaceEnrollments(_ enrolled: [EnrolledCourse], at now: Date) async throws {
        try await writer.write { db in
            try CachedEntity.filter(CachedEntity.Columns.kind == CachedEntity.Kind.enrollment.rawValue).deleteAll(db)
            for item in enrolled {
                let enrollment = Enrollment(courseId: item.course.id, userId: "", enrolledAt: item.enrolledAt)
                try CachedEntity.make(enrollment, kind: .enrollment, id: item.course.id, version: nil, at: now).store(db)
                try Self.entity(item.course, at: now).store(db)
            }
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

    private static func entity(_ course: Course, at date: Date) throws -> CachedEntity {
        // Newest first: invert the creation time so an ascending sort key lists newest first.
        let key = String(format: "%012.0f", 1e11 - course.createdAt.timeIntervalSince1970)
        return try CachedEntity.make(course, kind: .course, id: course.id, sortKey: key, version: course.version, at: date)
    }
}
