import Foundation
import GRDB

/// One lesson's progress as a learner reports it: each member `nil` when left out.
package struct ProgressReport: Sendable {
    package var lessonId: String
    package var completed: Bool?
    package var watchedSeconds: Int?

    package init(lessonId: String, completed: Bool? = nil, watchedSeconds: Int? = nil) {
        self.lessonId = lessonId
        self.completed = completed
        self.watchedSeconds = watchedSeconds
    }
}

extension TenantStore {
    /// A learner's progress through a course `identity` may see: their own, or — for the course's
    /// teacher or an admin — the learner `userID` names.
    package func progress(
        inCourse courseID: String, of userID: String?, visibleTo identity: Identity
    ) async throws -> CourseProgress {
        try await database.read { db in
            let course = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            var learner = identity.userID
            if let userID, userID != identity.userID {
                guard CourseAccess.canEdit(course, identity: identity) else {
                    throw StoreError.forbidden(.seeOthersProgress)
                }
                guard try UserRecord.exists(db, key: userID) else { throw StoreError.notFound(.user) }
                learner = userID
            }
            // Statements the connection keeps prepared: each made anew cost about 400,000 instructions.
            let list = ProgressListQuery.progress(inCourse: courseID, of: learner)
            let records = try ProgressRecord.fetchAll(db.cachedStatement(sql: list.sql), arguments: list.arguments)
            let total = try Self.lessonCount(db, courseID: courseID)
            let completed = records.filter(\.completed).count
            return CourseProgress(
                courseID: courseID, userID: learner, lessons: records, completedLessons: completed, totalLessons: total)
        }
    }

    /// Records one lesson's progress for `identity`, who must be enrolled in the course. The
    /// first report needs no base version, later ones do (``StoreError/preconditionRequired``
    /// without, ``StoreError/versionConflict(_:)`` when stale). `completed_at` is set here; a report that changes nothing keeps the version.
    package func recordProgress(
        _ report: ProgressReport, inCourse courseID: String, by identity: Identity, base: VersionPrecondition?,
        now: Date
    ) async throws -> ProgressRecord {
        let userID = identity.userID
        return try await database.writer.write { db -> ProgressRecord in
            // The statements a progress write asks each time are kept prepared by the connection:
            // generating and preparing these four again cost each write 1.6 million of its
            // 2.3 million instructions (callgrind, `Benchmarks/instructions`).
            _ = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            let lessonCourse = try String.fetchOne(
                db.cachedStatement(sql: "SELECT course_id FROM lessons WHERE id = ?"), arguments: [report.lessonId])
            guard lessonCourse == courseID else {
                throw StoreError.notFound(.lesson)
            }
            let enrolled = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM enrollments WHERE course_id = ? AND user_id = ?)"),
                arguments: [courseID, userID])
            guard enrolled == true else {
                throw StoreError.forbidden(.recordProgressUnenrolled)
            }
            let existing = try ProgressRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM progress WHERE user_id = ? AND lesson_id = ?"),
                arguments: [userID, report.lessonId])
            guard var record = existing else {
                let record = ProgressRecord(
                    userId: userID, lessonId: report.lessonId, courseId: courseID, completed: report.completed ?? false,
                    completedAt: report.completed == true ? now : nil, watchedSeconds: report.watchedSeconds ?? 0,
                    version: 1, updatedAt: now)
                try record.insert(db)
                return record
            }
            guard let base else {
                throw StoreError.preconditionRequired
            }
            try base.check(currentVersion: record.version, current: record)
            let before = record
            if let completed = report.completed {
                if completed && !record.completed { record.completedAt = now }
                if !completed { record.completedAt = nil }
                record.completed = completed
            }
            if let watched = report.watchedSeconds { record.watchedSeconds = watched }
            if record.completed != before.completed || record.watchedSeconds != before.watchedSeconds {
                record.version += 1
                record.updatedAt = now
                try record.update(db)
            }
            return record
        }
    }
}
