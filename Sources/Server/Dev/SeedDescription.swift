import EduGoServerStore
import Foundation

/// A declarative seed, validated: tenants with their accounts, courses, lessons, enrollments and
/// progress, as a seed file (`--seed FILE`, the built-in demo data) or the body of
/// `POST /__dev/tenants` (one tenant) describes them.
///
/// Every reference is checked before anything is written (a teacher or student names an account
/// of the same tenant, a course a course of it, a lesson a lesson of that course), so a value of
/// this type always seeds whole. Identity, which makes seeding idempotent:
/// a tenant is its `id`, an account its email (compared as sign-in compares it), a course its
/// `key` (its title when it has none) and a lesson its `key` within the course (likewise), an
/// enrollment its student and course, a progress record its student and lesson.
struct SeedDescription: Sendable, Equatable {
    struct User: Sendable, Equatable {
        var email: String
        var password: String
        var role: UserRecord.Role
        var firstName: String
        var lastName: String
        var emailVerified: Bool
    }

    struct Lesson: Sendable, Equatable {
        /// Unique within the course.
        var key: String
        var title: String
        var content: String
        var durationMinutes: Int
    }

    struct Course: Sendable, Equatable {
        /// Unique within the tenant.
        var key: String
        var title: String
        var description: String
        var category: String
        var published: Bool
        /// The email of an account of the tenant with the teacher or admin role.
        var teacher: String
        var lessons: [Lesson]
    }

    struct Enrollment: Sendable, Equatable {
        /// The email of an account of the tenant.
        var student: String
        /// The key of a course of the tenant.
        var course: String
    }

    struct Progress: Sendable, Equatable {
        var student: String
        var course: String
        /// The key of a lesson of the course.
        var lesson: String
        var completed: Bool
        var watchedSeconds: Int
    }

    struct Tenant: Sendable, Equatable {
        /// Required in a seed file; `POST /__dev/tenants` chooses a fresh one instead.
        var id: TenantID?
        var name: String?
        var users: [User]
        var courses: [Course]
        var enrollments: [Enrollment]
        var progress: [Progress]
    }

    var tenants: [Tenant]

    /// The tenant with `id`, if the description has one.
    func tenant(_ id: String) -> Tenant? {
        tenants.first { $0.id?.rawValue == id }
    }
}

/// A seed that failed validation: every problem, each named by its path in the document
/// (`tenants[1].courses[3].lessons[0].title`).
struct SeedValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    var issues: [APIError.FieldError]

    /// One line per problem: `tenants[1].courses[3].lessons[0].title: required`.
    var lines: [String] { issues.map { "\($0.field): \($0.message)" } }

    var description: String { lines.joined(separator: "\n") }

    /// `422 validation_failed` listing the problems (the first 20, with `error_count`).
    var apiError: APIError {
        var error = APIError.validation(issues)
        error.status = .unprocessableContent
        return error
    }
}
