/// One tenant of a seed file, as a Swift value: its accounts, courses with lessons, enrollments
/// and progress.
///
/// The same JSON as a tenant of an `edugo-server --seed FILE` file and the body of
/// `POST /__dev/tenants` (snake_case members), so a fixture can live in a JSON file of your test
/// bundle (decode it with `JSONDecoder`) or be built in code:
///
/// ```swift
/// let fixture = SeedTenant(
///     users: [
///         .init(email: "teacher@school.test", password: "Teacher-Pass-1", role: .teacher),
///         .init(email: "ana@school.test", password: "Student-Pass-1", role: .student),
///     ],
///     courses: [
///         .init(title: "Álgebra", category: "mathematics", teacher: "teacher@school.test",
///               lessons: [.init(title: "Ecuaciones")]),
///     ],
///     enrollments: [.init(student: "ana@school.test", course: "Álgebra")])
/// let tenant = try await server.seed(fixture)
/// ```
///
/// References are by identity: a course's `teacher` and an enrollment's `student` name a user's
/// email, a `course` a course's ``Course/key`` (its title when it has none), a progress `lesson`
/// a lesson's key within that course. The server checks the whole description before it writes
/// anything and names each problem by its path (`courses[3].lessons[0].title: required`).
public struct SeedTenant: Sendable, Equatable, Codable {
    /// The tenant's id. Required in a seed file; leave it `nil` for ``EduGoTestServer/seed(_:)``
    /// (the server chooses a fresh id).
    public var id: String?
    /// A display name (the id when `nil`).
    public var name: String?
    public var users: [User]
    public var courses: [Course]
    public var enrollments: [Enrollment]
    public var progress: [Progress]

    public init(
        id: String? = nil, name: String? = nil, users: [User] = [], courses: [Course] = [],
        enrollments: [Enrollment] = [], progress: [Progress] = []
    ) {
        self.id = id
        self.name = name
        self.users = users
        self.courses = courses
        self.enrollments = enrollments
        self.progress = progress
    }

    /// An account. Identity: its email (compared as sign-in compares it).
    public struct User: Sendable, Equatable, Codable {
        public var email: String
        /// 8 characters to 72 bytes; hashed by the server at its bcrypt cost.
        public var password: String
        public var role: EduGoTestServer.Role
        /// `role`'s name, capitalised, when `nil`.
        public var firstName: String?
        /// `Seed` when `nil`.
        public var lastName: String?
        /// `true` when `nil`.
        public var emailVerified: Bool?

        public init(
            email: String, password: String, role: EduGoTestServer.Role, firstName: String? = nil,
            lastName: String? = nil, emailVerified: Bool? = nil
        ) {
            self.email = email
            self.password = password
            self.role = role
            self.firstName = firstName
            self.lastName = lastName
            self.emailVerified = emailVerified
        }

        enum CodingKeys: String, CodingKey {
            case email, password, role, firstName = "first_name", lastName = "last_name", emailVerified = "email_verified"
        }
    }

    /// A course. Identity: its ``key`` (its title when `nil`), unique in the tenant.
    public struct Course: Sendable, Equatable, Codable {
        public var key: String?
        public var title: String
        public var description: String?
        /// One of `mathematics`, `science`, `languages`, `programming`, `history`, `arts`, `business`.
        public var category: String
        /// `true` when `nil`.
        public var published: Bool?
        /// The email of a teacher or admin of the tenant.
        public var teacher: String
        public var lessons: [Lesson]

        public init(
            key: String? = nil, title: String, description: String? = nil, category: String, published: Bool? = nil,
            teacher: String, lessons: [Lesson] = []
        ) {
            self.key = key
            self.title = title
            self.description = description
            self.category = category
            self.published = published
            self.teacher = teacher
            self.lessons = lessons
        }
    }

    /// A lesson, in course order. Identity: its ``key`` (its title when `nil`), unique in the course.
    public struct Lesson: Sendable, Equatable, Codable {
        public var key: String?
        public var title: String
        public var content: String?
        /// 10 when `nil`.
        public var durationMinutes: Int?

        public init(key: String? = nil, title: String, content: String? = nil, durationMinutes: Int? = nil) {
            self.key = key
            self.title = title
            self.content = content
            self.durationMinutes = durationMinutes
        }

        enum CodingKeys: String, CodingKey {
            case key, title, content, durationMinutes = "duration_minutes"
        }
    }

    /// A user enrolled in a course (by email and course key).
    public struct Enrollment: Sendable, Equatable, Codable {
        public var student: String
        public var course: String

        public init(student: String, course: String) {
            self.student = student
            self.course = course
        }
    }

    /// A student's progress in one lesson of a course they are enrolled in.
    public struct Progress: Sendable, Equatable, Codable {
        public var student: String
        public var course: String
        /// The lesson's key within the course.
        public var lesson: String
        /// `false` when `nil`.
        public var completed: Bool?
        /// 0 when `nil`.
        public var watchedSeconds: Int?

        public init(student: String, course: String, lesson: String, completed: Bool? = nil, watchedSeconds: Int? = nil) {
            self.student = student
            self.course = course
            self.lesson = lesson
            self.completed = completed
            self.watchedSeconds = watchedSeconds
        }

        enum CodingKeys: String, CodingKey {
            case student, course, lesson, completed, watchedSeconds = "watched_seconds"
        }
    }
}

/// A whole seed file: `{"tenants": [...]}`, each tenant with its ``SeedTenant/id``.
public struct SeedFile: Sendable, Equatable, Codable {
    public var tenants: [SeedTenant]

    public init(tenants: [SeedTenant]) {
        self.tenants = tenants
    }
}
