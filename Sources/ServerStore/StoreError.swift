/// Why a store method refused, in the store's own terms.
///
/// The store knows no HTTP: the server maps each case to its status, problem `code` and body in
/// one place (`APIError(_:)` of the HTTP layer). Errors of SQLite itself are not wrapped: they
/// stay internal errors.
package enum StoreError: Error, Sendable {
    /// The object does not exist, or the caller may not see it (the same answer, so that
    /// existence never leaks).
    case notFound(Entity)
    /// The caller sees the object but may not do this to it.
    case forbidden(Refusal)
    /// The object's current state refuses the change.
    case conflict(Conflict)
    /// The change was based on a version that is no longer current.
    case versionConflict(VersionConflict)
    /// A report of a lesson's progress, which exists already, named no version to base the change on.
    case preconditionRequired
    /// A value that is well formed but does not fit the data as it stands.
    case validation(field: String, code: String, message: String)
    /// Another account of the tenant holds the email address.
    case emailTaken
    /// An `Idempotency-Key` that was used with a different request.
    case idempotencyKeyReused
    /// An `Idempotency-Key` whose first request is still running.
    case idempotencyInProgress
    /// A change-feed cursor minted for another tenant or user.
    case invalidCursor
    /// A change-feed cursor that can no longer be read from: a base sync puts the client right.
    case cursorExpired(CursorExpiry)
    /// An email token (verification or password reset) that is unknown, used or expired.
    case invalidEmailToken
    /// A snapshot whose copy is gone.
    case snapshotNotFound

    /// The kinds of object a lookup can miss.
    package enum Entity: String, Sendable {
        case course, lesson, user, media
    }

    /// What the caller may not do.
    package enum Refusal: Sendable {
        /// Create a course (teachers and admins only).
        case createCourse
        /// Make someone else a course's teacher (admins only).
        case assignCourseTeacher
        /// Change a course that is not theirs (only its teacher or an admin may).
        case editCourse
        /// See another learner's progress in a course that is not theirs.
        case seeOthersProgress
        /// Change an account other than their own.
        case changeOthersProfile
        /// Change their own role or sign-in email (another admin does that).
        case changeOwnAccount
        /// List or search the tenant's accounts (teachers and admins only).
        case listUsers
        /// Create an account for someone else (admins only).
        case createUsers
        /// Delete an account (admins only).
        case deleteUsers
        /// Record progress in a course they are not enrolled in.
        case recordProgressUnenrolled
        /// Download a lesson's media without being enrolled in its published course.
        case downloadMediaUnenrolled
    }

    /// The states that refuse a change.
    package enum Conflict: Sendable {
        /// Only published courses accept enrollments.
        case courseNotPublished
        /// Admins do not delete their own account.
        case cannotDeleteSelf
        /// A teacher who owns courses cannot become a student.
        case teacherOwnsCoursesDemoted
        /// A teacher who owns courses cannot be deleted.
        case teacherOwnsCoursesDeleted
        /// The tenant keeps at least one admin.
        case lastAdmin
    }

    /// Why a change-feed cursor expired (the problem's `reason`).
    package enum CursorExpiry: String, Sendable {
        /// The changes after it are older than the retention window (or it stands past the log's head).
        case retention = "retention_exceeded"
        /// The caller's role changed since it was minted.
        case roleChanged = "role_changed"
        /// The tenant's data was replaced (snapshot restore, import, tenant re-created) since it
        /// was minted: it names another ``ChangeTimeline``.
        case timelineChanged = "timeline_changed"
    }
}

/// A change based on a stale version: what it was based on, and the object as it is now.
package struct VersionConflict: Sendable {
    /// The version the change named, and where.
    package var base: VersionPrecondition
    /// The object's current version.
    package var currentVersion: Int
    /// The object's current state as the store holds it (its record, as the change feed reads
    /// it), for the client to merge with; the HTTP layer answers its representation.
    package var current: any Sendable

    package init(base: VersionPrecondition, currentVersion: Int, current: any Sendable) {
        self.base = base
        self.currentVersion = currentVersion
        self.current = current
    }
}
