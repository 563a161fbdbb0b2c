import EduGoServerStore
import Foundation

/// Walks a seed document, collecting every problem with its path.
struct SeedParser {
    private(set) var issues: [APIError.FieldError] = []

    static let tenantKeys: Set<String> = ["id", "name", "users", "courses", "enrollments", "progress"]
    static let userKeys: Set<String> = ["email", "password", "role", "first_name", "last_name", "email_verified"]
    static let courseKeys: Set<String> = ["key", "title", "description", "category", "published", "teacher", "lessons"]
    static let lessonKeys: Set<String> = ["key", "title", "content", "duration_minutes"]
    static let enrollmentKeys: Set<String> = ["student", "course"]
    static let progressKeys: Set<String> = ["student", "course", "lesson", "completed", "watched_seconds"]

    mutating func fail(_ path: String, _ code: String, _ message: String) {
        issues.append(.init(field: path, code: code, message: message))
    }

    func throwIfInvalid() throws {
        if !issues.isEmpty { throw SeedValidationError(issues: issues) }
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// `value` as an object whose members are all in `keys`; records what is wrong otherwise.
    mutating func object(_ value: JSONValue, at path: String, keys: Set<String>) -> [String: JSONValue]? {
        guard case .object(let object) = value else {
            fail(path.isEmpty ? "$" : path, "invalid_type", "must be an object")
            return nil
        }
        for key in object.keys.sorted() where !keys.contains(key) {
            fail(Self.join(path, key), "unknown_field", "is not a recognised field")
        }
        return object
    }

    /// The array member `key` (empty when absent and not required).
    mutating func array(_ object: [String: JSONValue], _ key: String, at path: String, required: Bool = false) -> [JSONValue] {
        guard let value = object[key] else {
            if required { fail(Self.join(path, key), "required", "required") }
            return []
        }
        guard case .array(let items) = value else {
            fail(Self.join(path, key), "invalid_type", "must be an array")
            return []
        }
        return items
    }

    /// Reads members with a ``JSONObjectReader``, whose errors name the member only.
    private mutating func read<Value>(
        _ object: [String: JSONValue], at path: String, _ body: (inout JSONObjectReader) -> Value
    ) -> Value {
        // The members were checked against the object's known ones by `object(_:at:keys:)`.
        var reader = JSONObjectReader(object, known: Set(object.keys))
        let value = body(&reader)
        for error in reader.errors {
            let message = error.code == "required" ? "required" : error.message
            fail(Self.join(path, error.field), error.code, message)
        }
        return value
    }

    // MARK: The tenant

    mutating func tenant(_ value: JSONValue, at path: String, allowsID: Bool) -> SeedDescription.Tenant? {
        guard let object = object(value, at: path, keys: Self.tenantKeys) else { return nil }
        var id: TenantID?
        if allowsID {
            let raw = read(object, at: path) { $0.string("id", required: true, length: 2...63, storesText: false) }
            if let raw {
                id = TenantID(raw)
                if id == nil {
                    fail(Self.join(path, "id"), "invalid_format", "must be 2 to 63 letters, digits or '-', starting with a letter or digit")
                }
            }
        } else if object["id"] != nil {
            fail(Self.join(path, "id"), "not_allowed", "is chosen by the server (leave it out)")
        }
        let name = read(object, at: path) { $0.string("name", length: 1...200) }

        var users: [SeedDescription.User] = []
        var emails: [String: (index: Int, role: UserRecord.Role)] = [:]
        for (index, item) in array(object, "users", at: path).enumerated() {
            let itemPath = Self.join(path, "users[\(index)]")
            guard let user = user(item, at: itemPath) else { continue }
            let key = UserRecord.emailKey(user.email)
            if let first = emails[key] {
                fail(Self.join(itemPath, "email"), "duplicate", "duplicate: also users[\(first.index)].email")
                continue
            }
            emails[key] = (index, user.role)
            users.append(user)
        }

        var courses: [SeedDescription.Course] = []
        var courseIndex: [String: (index: Int, lessons: Set<String>)] = [:]
        for (index, item) in array(object, "courses", at: path).enumerated() {
            let itemPath = Self.join(path, "courses[\(index)]")
            guard let course = course(item, at: itemPath) else { continue }
            if let first = courseIndex[course.key] {
                fail(Self.join(itemPath, "key"), "duplicate", "duplicate: also courses[\(first.index)] (a course without a key is keyed by its title)")
                continue
            }
            switch emails[UserRecord.emailKey(course.teacher)]?.role {
            case .teacher?, .admin?: break
            case .student?: fail(Self.join(itemPath, "teacher"), "invalid_reference", "names a student (a teacher or admin is needed)")
            case nil: fail(Self.join(itemPath, "teacher"), "invalid_reference", "is not the email of a user of this tenant")
            }
            courseIndex[course.key] = (index, Set(course.lessons.map(\.key)))
            courses.append(course)
        }

        var enrollments: [SeedDescription.Enrollment] = []
        var enrolled: [String: Int] = [:]
        for (index, item) in array(object, "enrollments", at: path).enumerated() {
            let itemPath = Self.join(path, "enrollments[\(index)]")
            guard let enrollment = enrollment(item, at: itemPath) else { continue }
            var valid = true
            if emails[UserRecord.emailKey(enrollment.student)] == nil {
                fail(Self.join(itemPath, "student"), "invalid_reference", "is not the email of a user of this tenant")
                valid = false
            }
            if courseIndex[enrollment.course] == nil {
                fail(Self.join(itemPath, "course"), "invalid_reference", "is not the key of a course of this tenant")
                valid = false
            }
            let identity = UserRecord.emailKey(enrollment.student) + "\u{1F}" + enrollment.course
            if valid, let first = enrolled[identity] {
                fail(itemPath, "duplicate", "duplicate: also enrollments[\(first)]")
                valid = false
            }
            guard valid else { continue }
            enrolled[identity] = index
            enrollments.append(enrollment)
        }

        var progress: [SeedDescription.Progress] = []
        var recorded: [String: Int] = [:]
        for (index, item) in array(object, "progress", at: path).enumerated() {
            let itemPath = Self.join(path, "progress[\(index)]")
            guard let entry = progressEntry(item, at: itemPath) else { continue }
            let studentKey = UserRecord.emailKey(entry.student)
            var valid = true
            if emails[studentKey] == nil {
                fail(Self.join(itemPath, "student"), "invalid_reference", "is not the email of a user of this tenant")
                valid = false
            }
            if let course = courseIndex[entry.course] {
                if !course.lessons.contains(entry.lesson) {
                    fail(Self.join(itemPath, "lesson"), "invalid_reference", "is not the key of a lesson of courses[\(course.index)]")
                    valid = false
                }
            } else {
                fail(Self.join(itemPath, "course"), "invalid_reference", "is not the key of a course of this tenant")
                valid = false
            }
            if valid, enrolled[studentKey + "\u{1F}" + entry.course] == nil {
                fail(itemPath, "not_enrolled", "the student is not enrolled in the course (add it to enrollments)")
                valid = false
            }
            let identity = studentKey + "\u{1F}" + entry.course + "\u{1F}" + entry.lesson
            if valid, let first = recorded[identity] {
                fail(itemPath, "duplicate", "duplicate: also progress[\(first)]")
                valid = false
            }
            guard valid else { continue }
            recorded[identity] = index
            progress.append(entry)
        }
        return SeedDescription.Tenant(
            id: id, name: name, users: users, courses: courses, enrollments: enrollments, progress: progress)
    }

    // MARK: Members

    mutating func user(_ value: JSONValue, at path: String) -> SeedDescription.User? {
        guard let object = object(value, at: path, keys: Self.userKeys) else { return nil }
        let (email, role, firstName, lastName, verified) = read(object, at: path) { reader in
            (
                reader.string("email", required: true, length: 3...254),
                reader.oneOf("role", required: true, UserRecord.Role.allCases.map(\.rawValue)).flatMap(UserRecord.Role.init),
                reader.string("first_name", length: 1...100),
                reader.string("last_name", length: 1...100),
                reader.bool("email_verified")
            )
        }
        var password: String?
        switch object["password"] {
        case .string(let raw)?:
            if let error = UserValidation.password(raw) {
                fail(Self.join(path, "password"), error.code, error.message)
            } else {
                password = raw
            }
        case nil: fail(Self.join(path, "password"), "required", "required")
        default: fail(Self.join(path, "password"), "invalid_type", "must be a string")
        }
        if email != nil, case .string(let raw)? = object["email"], let error = UserValidation.email(raw) {
            fail(Self.join(path, "email"), error.code, error.message)
            return nil
        }
        guard let email, let password, let role else { return nil }
        return SeedDescription.User(
            email: EmailAddress.normalized(email), password: password, role: role,
            firstName: firstName ?? role.rawValue.capitalized, lastName: lastName ?? "Seed",
            emailVerified: verified ?? true)
    }

    mutating func course(_ value: JSONValue, at path: String) -> SeedDescription.Course? {
        guard let object = object(value, at: path, keys: Self.courseKeys) else { return nil }
        let (key, title, description, category, published, teacher) = read(object, at: path) { reader in
            (
                reader.string("key", length: 1...200),
                reader.string("title", required: true, length: 1...200),
                reader.string("description", length: 0...5000),
                reader.oneOf("category", required: true, CourseRecord.categories),
                reader.bool("published"),
                reader.string("teacher", required: true, length: 3...254)
            )
        }
        var lessons: [SeedDescription.Lesson] = []
        var keys: [String: Int] = [:]
        for (index, item) in array(object, "lessons", at: path).enumerated() {
            let itemPath = Self.join(path, "lessons[\(index)]")
            guard let lesson = lesson(item, at: itemPath) else { continue }
            if let first = keys[lesson.key] {
                fail(Self.join(itemPath, "key"), "duplicate", "duplicate: also lessons[\(first)] (a lesson without a key is keyed by its title)")
                continue
            }
            keys[lesson.key] = index
            lessons.append(lesson)
        }
        guard let title, let category, let teacher else { return nil }
        return SeedDescription.Course(
            key: key ?? title, title: title, description: description ?? "", category: category,
            published: published ?? true, teacher: EmailAddress.normalized(teacher), lessons: lessons)
    }

    mutating func lesson(_ value: JSONValue, at path: String) -> SeedDescription.Lesson? {
        guard let object = object(value, at: path, keys: Self.lessonKeys) else { return nil }
        let (key, title, content, duration) = read(object, at: path) { reader in
            (
                reader.string("key", length: 1...200),
                reader.string("title", required: true, length: 1...200),
                reader.string("content", length: 0...100_000),
                reader.int("duration_minutes", range: 0...1440)
            )
        }
        guard let title else { return nil }
        return SeedDescription.Lesson(key: key ?? title, title: title, content: content ?? "", durationMinutes: duration ?? 10)
    }

    mutating func enrollment(_ value: JSONValue, at path: String) -> SeedDescription.Enrollment? {
        guard let object = object(value, at: path, keys: Self.enrollmentKeys) else { return nil }
        let (student, course) = read(object, at: path) { reader in
            (reader.string("student", required: true, length: 3...254), reader.string("course", required: true, length: 1...200))
        }
        guard let student, let course else { return nil }
        return SeedDescription.Enrollment(student: EmailAddress.normalized(student), course: course)
    }

    mutating func progressEntry(_ value: JSONValue, at path: String) -> SeedDescription.Progress? {
        guard let object = object(value, at: path, keys: Self.progressKeys) else { return nil }
        let (student, course, lesson, completed, watched) = read(object, at: path) { reader in
            (
                reader.string("student", required: true, length: 3...254),
                reader.string("course", required: true, length: 1...200),
                reader.string("lesson", required: true, length: 1...200),
                reader.bool("completed"),
                reader.int("watched_seconds", range: 0...ProgressBody.maxWatchedSeconds)
            )
        }
        guard let student, let course, let lesson else { return nil }
        return SeedDescription.Progress(
            student: EmailAddress.normalized(student), course: course, lesson: lesson, completed: completed ?? false,
            watchedSeconds: watched ?? 0)
    }
}
