import EduGoServerStore
import Foundation

/// Writes seed accounts, courses, lessons, enrollments and progress into a tenant database, in
/// one transaction.
struct Seeder {
    let passwords: PasswordHasher
    let now: Date

    struct Plan: Sendable {
        var domain: String
        var teachers: Int
        var students: Int
        var courses: [SeedCatalog.Course]
        /// Enroll every student in the first N published courses and record some progress.
        var enrollFirst: Int
    }

    static let demo = Plan(domain: "demo.edugo.dev", teachers: 2, students: 6, courses: SeedCatalog.demoCourses, enrollFirst: 3)
    static let acme = Plan(domain: "acme.example", teachers: 1, students: 2, courses: SeedCatalog.acmeCourses, enrollFirst: 1)
    static let devTenant = Plan(
        domain: "test.edugo.dev", teachers: 1, students: 1, courses: SeedCatalog.devTenantCourses, enrollFirst: 0)

    /// Seeds `store` according to `plan` and returns the accounts created.
    @discardableResult
    func seed(_ store: TenantStore, plan: Plan) async throws -> [SeedCatalog.Account] {
        let accounts = SeedCatalog.accounts(domain: plan.domain, teachers: plan.teachers, students: plan.students)
        var hashes: [UserRecord.Role: String] = [:]
        for role in UserRecord.Role.allCases {
            hashes[role] = await passwords.hashOnce(SeedCatalog.password(for: role))
        }
        let now = self.now
        var rows = SeedRows()
        for (index, account) in accounts.enumerated() {
            let created = now.addingTimeInterval(TimeInterval(index - 100) * 60)
            var user = UserRecord(
                id: RecordID.make(), email: account.email, emailKey: "",
                passwordHash: hashes[account.role] ?? "", firstName: account.firstName, lastName: account.lastName,
                role: account.role, emailVerified: true, version: 1, createdAt: created,
                updatedAt: created)
            user.refreshDerivedColumns()
            rows.users.append(user)
        }
        let teachers = rows.users.filter { $0.role == .teacher }
        let students = rows.users.filter { $0.role == .student }
        var published: [(CourseRecord, [LessonRecord])] = []
        for (index, course) in plan.courses.enumerated() {
            let created = now.addingTimeInterval(TimeInterval(index - 50) * 60)
            let record = CourseRecord(
                id: RecordID.make(), title: course.title, description: course.description,
                category: course.category, thumbnailUrl: nil, published: course.published,
                teacherId: teachers[course.teacher % teachers.count].id, version: 1,
                createdAt: created, updatedAt: created)
            rows.courses.append(record)
            var lessons: [LessonRecord] = []
            for (order, title) in course.lessons.enumerated() {
                lessons.append(LessonRecord(
                    id: RecordID.make(), courseId: record.id, title: title,
                    content: "\(title): \(course.description)", order: order + 1,
                    durationMinutes: 8 + (order * 7) % 20, videoUrl: nil, version: 1, createdAt: created,
                    updatedAt: created))
            }
            rows.lessons += lessons
            if course.published { published.append((record, lessons)) }
        }
        for (studentIndex, student) in students.enumerated() {
            for (courseIndex, (course, lessons)) in published.prefix(plan.enrollFirst).enumerated() {
                rows.enrollments.append(EnrollmentRecord(courseId: course.id, userId: student.id, enrolledAt: now))
                let done = (studentIndex + courseIndex) % max(1, lessons.count)
                for lesson in lessons.prefix(done) {
                    rows.progress.append(ProgressRecord(
                        userId: student.id, lessonId: lesson.id, courseId: course.id, completed: true,
                        completedAt: now, watchedSeconds: lesson.durationMinutes * 60, version: 1, updatedAt: now))
                }
            }
        }
        try await store.insert(rows)
        return accounts
    }
}
