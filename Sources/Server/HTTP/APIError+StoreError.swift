import EduGoServerStore
import Foundation

/// The one place a store refusal becomes an answer: each ``StoreError`` case's status, problem
/// `code`, detail and, for version conflicts, the current representation.
extension APIError {
    /// The problem a store refusal answers with.
    init(_ error: StoreError) {
        switch error {
        case .notFound(let entity):
            self = .notFound(entity.rawValue)
        case .forbidden(let refusal):
            self = Self.forbidden(refusal)
        case .conflict(let conflict):
            self = Self.conflict(conflict)
        case .versionConflict(let conflict):
            self = Self.versionConflict(conflict)
        case .preconditionRequired:
            self = APIError(
                .preconditionRequired, code: "precondition_required",
                detail: "This lesson already has progress; name the version the update is based on.")
        case .validation(let field, let code, let message):
            self = .validation(field: field, code: code, message: message)
        case .emailTaken:
            self = APIError(.conflict, code: "email_taken", detail: "An account with this email already exists.")
        case .idempotencyKeyReused:
            self = APIError(
                .unprocessableContent, code: "idempotency_key_reused",
                detail: "This Idempotency-Key was used with a different request.")
        case .idempotencyInProgress:
            self = APIError(
                .conflict, code: "idempotency_in_progress",
                detail: "A request with this Idempotency-Key is still being processed.")
        case .invalidCursor:
            self = .invalidCursor
        case .cursorExpired(let reason):
            self = .cursorExpired(reason)
        case .invalidEmailToken:
            self = .invalidEmailToken
        case .snapshotNotFound:
            self = .snapshotNotFound
        }
    }

    private static func forbidden(_ refusal: StoreError.Refusal) -> APIError {
        switch refusal {
        case .createCourse:
            .forbidden("Only teachers and admins create courses.")
        case .assignCourseTeacher:
            .forbidden("Only admins choose another user as a course's teacher.")
        case .editCourse:
            .forbidden("Only the course's teacher or an admin may change it.")
        case .seeOthersProgress:
            .forbidden("Only the course's teacher or an admin may see another learner's progress.")
        case .changeOthersProfile:
            .forbidden("You may only change your own profile.")
        case .changeOwnAccount:
            .forbidden("Your own role and email are changed by another admin.")
        case .listUsers:
            .forbidden("Only teachers and admins list users.")
        case .createUsers:
            .forbidden("Only admins create users.")
        case .deleteUsers:
            .forbidden("Only admins delete users.")
        case .recordProgressUnenrolled:
            APIError(.forbidden, code: "not_enrolled", detail: "Enroll in the course before recording progress.")
        case .downloadMediaUnenrolled:
            APIError(.forbidden, code: "not_enrolled", detail: "Enroll in the course to download its lessons' media.")
        }
    }

    private static func conflict(_ conflict: StoreError.Conflict) -> APIError {
        switch conflict {
        case .courseNotPublished:
            APIError(.conflict, code: "course_not_published", detail: "Only published courses accept enrollments.")
        case .cannotDeleteSelf:
            APIError(.conflict, code: "cannot_delete_self", detail: "Admins cannot delete their own account.")
        case .teacherOwnsCoursesDemoted:
            APIError(
                .conflict, code: "user_owns_courses", detail: "Reassign this teacher's courses before making them a student.")
        case .teacherOwnsCoursesDeleted:
            APIError(.conflict, code: "user_owns_courses", detail: "Reassign or delete this teacher's courses first.")
        case .lastAdmin:
            APIError(
                .conflict, code: "last_admin", detail: "A tenant keeps at least one admin: promote another user first.")
        }
    }

    /// `412` when the stale version came in `If-Match`, else `409`; both carry the current
    /// version and representation.
    private static func versionConflict(_ conflict: VersionConflict) -> APIError {
        guard let representable = conflict.current as? any SyncRepresentable,
            let current = try? JSONValue.encoding(representable.syncRepresentation)
        else { return .internalError }
        let currentVersion = conflict.currentVersion
        switch conflict.base.source {
        case .ifMatch:
            return APIError(
                .preconditionFailed, code: "version_conflict",
                detail: "If-Match does not match the current version \(currentVersion).",
                currentVersion: currentVersion, current: current)
        case .body, .any:
            return APIError(
                .conflict, code: "version_conflict",
                detail: "The update was based on version \(conflict.base.version ?? 0), but the current version is \(currentVersion).",
                currentVersion: currentVersion, current: current)
        }
    }

    /// `400 invalid_cursor`: the cursor is not one this server minted for the caller.
    static let invalidCursor = APIError(
        .badRequest, code: "invalid_cursor", detail: "The cursor is not valid for this caller. Sync again without one.")

    /// `410 cursor_expired`: the cursor can no longer be read from; sync again without one. Its
    /// `reason` says why: `retention_exceeded`, `role_changed` or `timeline_changed` (the tenant's
    /// data was replaced by a snapshot restore, an import or a re-created tenant).
    static func cursorExpired(_ reason: StoreError.CursorExpiry) -> APIError {
        let detail =
            switch reason {
            case .retention: "The changes after this cursor are no longer available."
            case .roleChanged: "The caller's role changed since this cursor was issued."
            case .timelineChanged:
                "The tenant's data was replaced (a snapshot restore, an import or a re-created tenant) since this cursor was issued."
            }
        var error = APIError(.gone, code: "cursor_expired", detail: detail + " Sync again without a cursor (a base sync).")
        error.reason = reason.rawValue
        return error
    }
}
