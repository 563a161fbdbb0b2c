import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Every role rule lives in the store: a handler that forgot one could not let a caller past it.
/// These call the store directly, with no HTTP layer in front.
@Suite(.timeLimit(.minutes(3))) struct StoreAuthorizationTests {
    static func course(teacher: String) -> CourseRecord {
        CourseRecord(
            id: RecordID.make(), title: "Regla de tres", description: "", category: "mathematics", published: false,
            teacherId: teacher, version: 1, createdAt: Date(), updatedAt: Date())
    }

    /// A seeded demo tenant's store and one identity of each kind.
    struct Demo {
        let database: TenantDatabase
        let store: TenantStore
        let student, teacher, other, admin: Identity

        init() async throws {
            database = try await TenantStoreTests.demoTenant()
            store = TenantStore(database)
            student = try await TenantStoreTests.identity("student1@demo.edugo.dev", in: database)
            teacher = try await TenantStoreTests.identity("teacher1@demo.edugo.dev", in: database)
            other = try await TenantStoreTests.identity("teacher2@demo.edugo.dev", in: database)
            admin = try await TenantStoreTests.identity("admin@demo.edugo.dev", in: database)
        }
    }

    /// How often something ran.
    final class Count: Sendable {
        let value = Mutex(0)
    }

    /// Whether `body` threw the store's refusal `expected`.
    static func refused(_ expected: StoreError.Refusal, _ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return false
        } catch StoreError.forbidden(let refusal) {
            return refusal == expected
        } catch {
            return false
        }
    }

    @Test("a student creates no course, and a teacher none for another teacher; an admin may")
    func courseCreation() async throws {
        let demo = try await Demo()
        let (student, teacher, other, admin) = (demo.student, demo.teacher, demo.other, demo.admin)

        #expect(await Self.refused(.createCourse) { _ = try await demo.store.createCourse(Self.course(teacher: student.userID), by: student) })
        #expect(await Self.refused(.assignCourseTeacher) { _ = try await demo.store.createCourse(Self.course(teacher: other.userID), by: teacher) })
        _ = try await demo.store.createCourse(Self.course(teacher: teacher.userID), by: teacher)
        _ = try await demo.store.createCourse(Self.course(teacher: other.userID), by: admin)

        let owners = try await demo.database.writer.read { db in
            try CourseRecord.filter(Column("title") == "Regla de tres").fetchAll(db).map(\.teacherId).sorted()
        }
        #expect(owners == [teacher.userID, other.userID].sorted())
    }

    @Test("a student lists no accounts; a teacher does")
    func userDirectory() async throws {
        let demo = try await Demo()
        let (student, teacher) = (demo.student, demo.teacher)

        #expect(await Self.refused(.listUsers) { _ = try await demo.store.userPage(role: nil, query: nil, pagination: Pagination(), visibleTo: student) })
        #expect(try await !demo.store.userPage(role: nil, query: nil, pagination: Pagination(), visibleTo: teacher).items.isEmpty)
    }

    @Test("only an admin creates an account, and a refused caller's account is never made (no password hashed)")
    func accountCreation() async throws {
        let demo = try await Demo()
        let (teacher, admin) = (demo.teacher, demo.admin)
        let made = Count()
        let makeUser = { @Sendable () async throws -> UserRecord in
            made.value.withLock { $0 += 1 }
            var user = UserRecord(
                id: RecordID.make(), email: "nueva@demo.edugo.dev", emailKey: "", passwordHash: "x", firstName: "Nueva",
                lastName: "Cuenta", role: .student, emailVerified: true, version: 1, createdAt: Date(), updatedAt: Date())
            user.refreshDerivedColumns()
            return user
        }

        #expect(await Self.refused(.createUsers) { _ = try await demo.store.createAccount(by: teacher, makeUser) })
        #expect(made.value.withLock { $0 } == 0)
        let created = try await demo.store.createAccount(by: admin, makeUser)
        #expect(made.value.withLock { $0 } == 1)
        #expect(try await demo.store.user(created.id, visibleTo: admin).email == "nueva@demo.edugo.dev")
    }

    @Test("a role taken away after authentication refuses in the write: no account, no course for another teacher")
    func staleRole() async throws {
        let demo = try await Demo()
        let (admin, teacher) = (demo.admin, demo.teacher)
        // The admin's identity was built while they were one; now they are a teacher.
        try await demo.database.writer.write { db in
            try db.execute(sql: "UPDATE users SET role = 'teacher' WHERE id = ?", arguments: [admin.userID])
        }
        var user = UserRecord(
            id: RecordID.make(), email: "tarde@demo.edugo.dev", emailKey: "", passwordHash: "x", firstName: "Tarde",
            lastName: "Cuenta", role: .student, emailVerified: true, version: 1, createdAt: Date(), updatedAt: Date())
        user.refreshDerivedColumns()
        let made = user

        #expect(await Self.refused(.createUsers) { _ = try await demo.store.createAccount(by: admin) { made } })
        #expect(await Self.refused(.assignCourseTeacher) { _ = try await demo.store.createCourse(Self.course(teacher: teacher.userID), by: admin) })
        let written = try await demo.database.writer.read { db in
            (try UserRecord.filter(Column("email") == "tarde@demo.edugo.dev").fetchCount(db),
             try CourseRecord.filter(Column("title") == "Regla de tres").fetchCount(db))
        }
        #expect(written == (0, 0))
    }

    @Test("no one changes their own role or email, and only an admin gives a course another teacher")
    func accountAndCourseChanges() async throws {
        let demo = try await Demo()
        let (admin, teacher, other) = (demo.admin, demo.teacher, demo.other)
        let course = try await demo.store.createCourse(Self.course(teacher: teacher.userID), by: teacher).course
        let unversioned = VersionPrecondition(version: nil, source: .any)

        #expect(await Self.refused(.changeOwnAccount) {
            _ = try await demo.store.updateUser(admin.userID, by: admin, changes: UserChanges(role: .teacher), base: unversioned, now: Date())
        })
        #expect(await Self.refused(.changeOwnAccount) {
            _ = try await demo.store.updateUser(teacher.userID, by: teacher, changes: UserChanges(email: "yo@demo.edugo.dev"), base: unversioned, now: Date())
        })
        #expect(await Self.refused(.assignCourseTeacher) {
            _ = try await demo.store.updateCourse(course.id, by: teacher, changes: CourseChanges(teacherId: other.userID), base: unversioned, now: Date())
        })
        let renamed = try await demo.store.updateUser(teacher.userID, by: teacher, changes: UserChanges(firstName: "Ana"), base: unversioned, now: Date())
        let moved = try await demo.store.updateCourse(course.id, by: admin, changes: CourseChanges(teacherId: other.userID), base: unversioned, now: Date())
        #expect(renamed.firstName == "Ana" && renamed.role == .teacher)
        #expect(moved.course.teacherId == other.userID)
    }
}
