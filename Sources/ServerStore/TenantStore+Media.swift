import Foundation
import GRDB

/// A lesson's media as a download needs it: where the file is and what to say about it.
package struct LessonMediaFile: Sendable {
    package var file: URL
    package var contentType: String
    package var size: Int
    package var sha256: String
    package var updatedAt: Date

    package init(file: URL, contentType: String, size: Int, sha256: String, updatedAt: Date) {
        self.file = file
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.updatedAt = updatedAt
    }
}

extension TenantStore {
    /// Checks, before an upload's body is received, that `identity` may change the lesson's media
    /// and that `base` names its current version (the check is made again when the file is
    /// attached: this one only spares a refused client from sending the whole file).
    package func checkMediaUpload(
        lesson lessonID: String, ofCourse courseID: String, by identity: Identity, base: VersionPrecondition
    ) async throws {
        try await database.writer.read { db in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            let lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
            try base.check(currentVersion: lesson.version, current: lesson)
        }
    }

    /// Makes a received upload the lesson's media, in one step: the access and the version are
    /// checked again, the file is renamed into place and the lesson row (version + 1) written in
    /// the same write transaction. The lesson's previous file is removed once that committed; on
    /// any failure the staged or published new file is removed and the lesson is unchanged.
    package func attachMedia(
        _ staged: StagedMedia, toLesson lessonID: String, ofCourse courseID: String, by identity: Identity,
        base: VersionPrecondition, in directory: MediaDirectory, now: Date
    ) async throws -> LessonRecord {
        let name = MediaDirectory.fileName(lessonID: lessonID, sha256: staged.sha256)
        let (lesson, previous): (LessonRecord, String?)
        do {
            (lesson, previous) = try await database.writer.write { db -> (LessonRecord, String?) in
                _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
                var lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
                try base.check(currentVersion: lesson.version, current: lesson)
                let previous = lesson.mediaFile
                lesson.mediaContentType = staged.type.rawValue
                lesson.mediaSize = staged.size
                lesson.mediaSHA256 = staged.sha256
                lesson.mediaUpdatedAt = now
                lesson.mediaFile = name
                lesson.version += 1
                lesson.updatedAt = now
                try lesson.update(db)
                // Last, so a failed update leaves no file behind; a failed commit is cleaned below.
                try directory.publish(staged.file, tenant: tenantID, name: name)
                return (lesson, previous)
            }
        } catch {
            directory.remove(staged.file)
            // The same content under the same name may be the lesson's current file: keep that one.
            let current = try? await database.writer.read { db in
                try LessonRecord.fetchOne(db, key: lessonID)?.mediaFile
            }
            if current != name { directory.remove(directory.file(tenant: tenantID, name: name)) }
            throw error
        }
        if let previous, previous != name {
            directory.remove(directory.file(tenant: tenantID, name: previous))
        }
        return lesson
    }

    /// Removes a lesson's media (not found when it has none); the lesson's version moves. `base`, when
    /// the request named one, must be the current version.
    package func detachMedia(
        fromLesson lessonID: String, ofCourse courseID: String, by identity: Identity, base: VersionPrecondition?,
        in directory: MediaDirectory, now: Date
    ) async throws -> LessonRecord {
        let (lesson, previous) = try await database.writer.write { db -> (LessonRecord, String) in
            _ = try CourseAccess.fetchEditable(db, id: courseID, identity: identity)
            var lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
            guard let previous = lesson.mediaFile else { throw StoreError.notFound(.media) }
            try base?.check(currentVersion: lesson.version, current: lesson)
            lesson.mediaContentType = nil
            lesson.mediaSize = nil
            lesson.mediaSHA256 = nil
            lesson.mediaUpdatedAt = nil
            lesson.mediaFile = nil
            lesson.version += 1
            lesson.updatedAt = now
            try lesson.update(db)
            return (lesson, previous)
        }
        directory.remove(directory.file(tenant: tenantID, name: previous))
        return lesson
    }

    /// The media of a lesson `identity` may download: the course's teacher and admins always, a
    /// learner when the course is published and they are enrolled in it.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when the course is invisible to them, the lesson unknown
    ///   or without media; ``StoreError/Refusal/downloadMediaUnenrolled`` for a learner of a visible
    ///   course they are not enrolled in.
    package func media(
        ofLesson lessonID: String, ofCourse courseID: String, visibleTo identity: Identity, in directory: MediaDirectory
    ) async throws -> LessonMediaFile {
        try await database.writer.read { db in
            let course = try CourseAccess.fetchVisible(db, id: courseID, identity: identity)
            let lesson = try Self.fetchLesson(db, lessonID: lessonID, courseID: courseID)
            if !CourseAccess.canEdit(course, identity: identity) {
                let enrolled = try EnrollmentRecord.filter(Column("course_id") == courseID && Column("user_id") == identity.userID)
                    .fetchCount(db) > 0
                guard course.published, enrolled else {
                    throw StoreError.forbidden(.downloadMediaUnenrolled)
                }
            }
            guard let name = lesson.mediaFile, let type = lesson.mediaContentType, let size = lesson.mediaSize,
                let sha256 = lesson.mediaSHA256, let updatedAt = lesson.mediaUpdatedAt
            else { throw StoreError.notFound(.media) }
            return LessonMediaFile(
                file: directory.file(tenant: tenantID, name: name), contentType: type, size: size, sha256: sha256,
                updatedAt: updatedAt)
        }
    }

    /// Removes the files of this tenant's media directory that no lesson refers to (left by a
    /// deleted lesson or course). Runs in a write transaction, so no upload publishes a file
    /// meanwhile.
    package func sweepMedia(in directory: MediaDirectory) async throws {
        try await database.writer.write { db in
            let referenced = Set(try String.fetchAll(db, sql: "SELECT media_file FROM lessons WHERE media_file IS NOT NULL"))
            for name in directory.fileNames(of: tenantID) where !referenced.contains(name) {
                directory.remove(directory.file(tenant: tenantID, name: name))
            }
        }
    }
}
