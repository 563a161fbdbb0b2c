import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `GET/POST /v1/users`, `GET /v1/users/search`, `GET/PATCH /v1/users/me`, `GET/PATCH/DELETE /v1/users/{id}`.
@Suite(.timeLimit(.minutes(3))) struct UserRoutesTests {
    // MARK: - Directory

    @Test("an admin lists the tenant's nine users as a no-store page")
    func adminListsUsers() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/users", as: admin)

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let page = try response.decode(PageBody<UserBody>.self)
            #expect((page.page, page.limit, page.total) == (1, 20, 9))
            #expect(page.items.contains { $0.email == Credentials.demoStudent.email })
            expectNoInternalMembers(response)
        }
    }

    @Test("a teacher may list users too")
    func teacherListsUsers() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.get("/v1/users", as: teacher)

            #expect(response.status == .ok)
            #expect(try response.decode(PageBody<UserBody>.self).total == 9)
        }
    }

    @Test("a student listing users answers 403 forbidden")
    func studentCannotList() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("the role filter keeps only users of that role")
    func roleFilter() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let page = try await client.get("/v1/users?role=teacher", as: admin).decode(PageBody<UserBody>.self)

            #expect(page.total == 2)
            #expect(page.items.allSatisfy { $0.role == "teacher" })
        }
    }

    @Test("an unknown role filter answers 400 validation_failed")
    func unknownRoleFilter() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/users?role=owner", as: admin)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["role"])
        }
    }

    @Test("the user list refuses a limit over 100")
    func userListLimit() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/users?limit=101", as: admin)

            try expectProblem(response, .badRequest, "validation_failed")
        }
    }

    @Test("user search ignores accents and case: gonzalez finds María González")
    func searchUsers() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.get("/v1/users/search?q=GONZALEZ", as: teacher)

            #expect(response.status == .ok)
            let page = try response.decode(PageBody<UserBody>.self)
            #expect(page.items.map(\.email) == [Credentials.demoTeacher.email])
            #expect(page.items.first?.lastName == "González")
        }
    }

    @Test("user search matches emails")
    func searchByEmail() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let page = try await client.get("/v1/users/search?q=student&limit=3", as: admin).decode(PageBody<UserBody>.self)

            #expect(page.total == 6)
            #expect(page.items.count == 3)
        }
    }

    @Test("user search without q answers 400 validation_failed")
    func searchNeedsQuery() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/users/search", as: admin)

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["q"])
        }
    }

    @Test("a student searching users answers 403 forbidden")
    func studentCannotSearch() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users/search?q=ana", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    // MARK: - Creating

    @Test("an admin creates a verified user who can sign in at once")
    func adminCreatesUser() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(
                .post, "/v1/users", as: admin,
                body: [
                    "email": "lucia@demo.edugo.dev", "password": "Lucia-Teaches-1", "first_name": "Lucía",
                    "last_name": "Fernández", "role": "teacher",
                ])

            #expect(response.status == .created)
            #expect(response.headers[.cacheControl] == "no-store")
            let user = try response.decode(UserBody.self)
            #expect(response.headers[.location] == "/v1/users/\(user.id)")
            #expect(user.role == "teacher")
            #expect(user.emailVerified)
            #expect(user.version == 1)
            expectNoInternalMembers(response)
            let login = try await client.login(email: "lucia@demo.edugo.dev", password: "Lucia-Teaches-1", tenant: "demo")
            #expect(login.status == .ok)
        }
    }

    @Test("a teacher creating a user answers 403 forbidden")
    func teacherCannotCreateUser() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .post, "/v1/users", as: teacher,
                body: [
                    "email": "x@demo.edugo.dev", "password": "Password-123", "first_name": "X", "last_name": "Y",
                    "role": "student",
                ])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student creating a user answers 403 forbidden")
    func studentCannotCreateUser() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .post, "/v1/users", as: student,
                body: [
                    "email": "x@demo.edugo.dev", "password": "Password-123", "first_name": "X", "last_name": "Y",
                    "role": "admin",
                ])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("creating a user with an email already taken, in any case, answers 409 email_taken")
    func duplicateEmail() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(
                .post, "/v1/users", as: admin,
                body: [
                    "email": "Student1@Demo.EduGo.dev", "password": "Password-123", "first_name": "X",
                    "last_name": "Y", "role": "student",
                ])

            try expectProblem(response, .conflict, "email_taken")
        }
    }

    @Test("a new user with a bad email, short password, no name and unknown role names every field")
    func invalidNewUser() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(
                .post, "/v1/users", as: admin,
                body: ["email": "not-an-email", "password": "short", "last_name": "Y", "role": "owner"])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(Set(problem.errors?.map(\.field) ?? []) == ["email", "password", "first_name", "role"])
        }
    }

    @Test("an unknown member in a new user answers 400 validation_failed")
    func unknownMemberOnCreate() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(
                .post, "/v1/users", as: admin,
                body: [
                    "email": "x@demo.edugo.dev", "password": "Password-123", "first_name": "X", "last_name": "Y",
                    "role": "student", "email_verified": false,
                ])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["email_verified"])
        }
    }

    // MARK: - Me

    @Test("GET /v1/users/me answers the caller's profile, no-store, with an ETag")
    func me() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users/me", as: student)

            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(try response.decode(UserBody.self) == student.user)
            #expect(try response.jsonObject().keys.sorted() == [
                "created_at", "email", "email_verified", "first_name", "id", "last_name", "role", "updated_at",
                "version",
            ])
        }
    }

    @Test("GET /v1/users/me answers the profile even to its own ETag: its tag serves If-Match, the contract has no 304 there")
    func meIgnoresIfNoneMatch() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users/me", as: student, headers: .ifNoneMatch("\"1\""))

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(try response.decode(UserBody.self) == student.user)
        }
    }

    @Test("a student renames themselves with PATCH /v1/users/me")
    func renameMe() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/me", as: student, body: ["first_name": "  Anita ", "version": 1])

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"2\"")
            let user = try response.decode(UserBody.self)
            #expect(user.firstName == "Anita")
            #expect(user.lastName == "López")
            #expect(user.version == 2)
            #expect(try await client.get("/v1/users/me", as: student).decode(UserBody.self) == user)
        }
    }

    @Test("a renamed user is found by the new name")
    func renameUpdatesSearch() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let admin = try await client.caller(.demoAdmin)
            _ = try await client.send(.patch, "/v1/users/me", as: student, body: ["last_name": "Núñez", "version": 1])

            let page = try await client.get("/v1/users/search?q=nunez", as: admin).decode(PageBody<UserBody>.self)

            #expect(page.items.map(\.id) == [student.id])
        }
    }

    @Test("a student setting their own role answers 403 field_not_writable and stays a student")
    func studentCannotPromoteThemselves() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/me", as: student, body: ["role": "admin", "version": 1])

            let problem = try expectProblem(response, .forbidden, "field_not_writable")
            #expect(problem.errors?.map(\.field) == ["role"])
            #expect(try await client.get("/v1/users/me", as: student).decode(UserBody.self).role == "student")
        }
    }

    @Test("a student setting their own role through /v1/users/{id} answers 403 field_not_writable")
    func studentCannotPromoteThemselvesById() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/\(student.id)", as: student, body: ["role": "teacher", "version": 1])

            try expectProblem(response, .forbidden, "field_not_writable")
        }
    }

    @Test("a teacher changing their own email answers 403 field_not_writable")
    func teacherCannotChangeEmail() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .patch, "/v1/users/me", as: teacher, body: ["email": "maria@demo.edugo.dev", "version": 1])

            try expectProblem(response, .forbidden, "field_not_writable")
        }
    }

    @Test("an unknown member in a profile update answers 400 validation_failed")
    func unknownMemberOnUpdate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/me", as: student, body: ["password": "New-Password-1", "version": 1])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["password"])
        }
    }

    @Test("an empty first_name answers 400 validation_failed")
    func emptyName() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(.patch, "/v1/users/me", as: student, body: ["first_name": " ", "version": 1])

            let problem = try expectProblem(response, .badRequest, "validation_failed")
            #expect(problem.errors?.map(\.field) == ["first_name"])
        }
    }

    // MARK: - One user

    @Test("a student reads their own profile by id")
    func studentReadsSelf() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.get("/v1/users/\(student.id)", as: student)

            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(try response.decode(UserBody.self) == student.user)
        }
    }

    @Test("a student reading a classmate's profile gets 404, as if it did not exist")
    func studentCannotReadClassmate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(2))

            let response = try await client.get("/v1/users/\(classmate.id)", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("teachers and admins read any profile of the tenant")
    func staffReadProfiles() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(.demoStudent)

            let byTeacher = try await client.get("/v1/users/\(student.id)", as: teacher)
            let byAdmin = try await client.get("/v1/users/\(student.id)", as: admin)

            #expect(try byTeacher.decode(UserBody.self) == student.user)
            #expect(try byAdmin.decode(UserBody.self) == student.user)
        }
    }

    @Test("an unknown user id answers 404")
    func unknownUser() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.get("/v1/users/00000000-0000-0000-0000-000000000000", as: admin)

            try expectProblem(response, .notFound, "not_found")
        }
    }

    @Test("an admin changes another user's role and email; the new role applies to that user's next request")
    func adminChangesRole() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(SeededAccount.demoStudent(6))

            let response = try await client.send(
                .patch, "/v1/users/\(student.id)", as: admin,
                body: ["role": "teacher", "email": "liam@demo.edugo.dev", "version": 1])

            #expect(response.status == .ok)
            let user = try response.decode(UserBody.self)
            #expect(user.role == "teacher")
            #expect(user.email == "liam@demo.edugo.dev")
            #expect(user.version == 2)
            let create = try await client.send(
                .post, "/v1/courses", as: student, body: ["title": "Liam's course", "category": "arts"])
            #expect(create.status == .created)
        }
    }

    @Test("an admin making a course-owning teacher a student answers 409 user_owns_courses and keeps the role")
    func demotingCourseOwnerRefused() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.send(
                .patch, "/v1/users/\(teacher.id)", as: admin, body: ["role": "student", "version": 1])

            try expectProblem(response, .conflict, "user_owns_courses")
            let kept = try await client.get("/v1/users/\(teacher.id)", as: admin).decode(UserBody.self)
            #expect(kept.role == "teacher")
            #expect(kept.version == 1)
        }
    }

    @Test("an admin makes a teacher without courses a student")
    func demotingTeacherWithoutCourses() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let created = try await client.send(
                .post, "/v1/users", as: admin,
                body: [
                    "email": "temp@demo.edugo.dev", "password": "Password-123", "first_name": "Temp", "last_name": "Teacher",
                    "role": "teacher",
                ])
            let teacher = try created.decode(UserBody.self)

            let response = try await client.send(
                .patch, "/v1/users/\(teacher.id)", as: admin, body: ["role": "student", "version": 1])

            #expect(response.status == .ok)
            #expect(try response.decode(UserBody.self).role == "student")
        }
    }

    @Test(
        "an admin changing their own role or email answers 403 field_not_writable",
        arguments: ["/v1/users/me", "/v1/users/{self}"])
    func adminCannotDemoteThemselves(path: String) async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let role = try await client.send(
                .patch, path.replacingOccurrences(of: "{self}", with: admin.id), as: admin,
                body: ["role": "student", "version": 1])
            let email = try await client.send(
                .patch, path.replacingOccurrences(of: "{self}", with: admin.id), as: admin,
                body: ["email": "boss@demo.edugo.dev", "version": 1])

            try expectProblem(role, .forbidden, "field_not_writable")
            try expectProblem(email, .forbidden, "field_not_writable")
            #expect(try await client.get("/v1/users/me", as: admin).decode(UserBody.self) == admin.user)
        }
    }

    @Test("an admin renames themselves")
    func adminRenamesThemselves() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.send(.patch, "/v1/users/me", as: admin, body: ["first_name": "Lau", "version": 1])

            #expect(response.status == .ok)
            #expect(try response.decode(UserBody.self).firstName == "Lau")
        }
    }

    @Test("DELETE /v1/users/me answers 405 with Allow: GET, HEAD, PATCH, not the methods of /v1/users/{id}")
    func deleteMeIsNotAllowed() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.delete("/v1/users/me", as: admin)

            try expectProblem(response, .methodNotAllowed, "method_not_allowed")
            #expect(response.headers[.allow] == "GET, HEAD, PATCH")
        }
    }

    @Test("an admin moving a user onto a taken email answers 409 email_taken")
    func adminEmailTaken() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(SeededAccount.demoStudent(6))

            let response = try await client.send(
                .patch, "/v1/users/\(student.id)", as: admin,
                body: ["email": Credentials.demoTeacher.email.uppercased(), "version": 1])

            try expectProblem(response, .conflict, "email_taken")
        }
    }

    @Test("a teacher changing a student's name answers 403 forbidden")
    func teacherCannotEditOthers() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)

            let response = try await client.send(
                .patch, "/v1/users/\(student.id)", as: teacher, body: ["first_name": "Otra", "version": 1])

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student changing a classmate's name gets 404")
    func studentCannotEditClassmate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(2))

            let response = try await client.send(
                .patch, "/v1/users/\(classmate.id)", as: student, body: ["first_name": "Otra", "version": 1])

            try expectProblem(response, .notFound, "not_found")
        }
    }

    // MARK: - Deleting

    @Test("an admin deletes a student: 204, the profile is gone and their token is refused")
    func adminDeletesStudent() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let student = try await client.caller(SeededAccount.demoStudent(6))

            let response = try await client.delete("/v1/users/\(student.id)", as: admin)

            #expect(response.status == .noContent)
            try expectProblem(try await client.get("/v1/users/\(student.id)", as: admin), .notFound, "not_found")
            try expectTokenRefused(try await client.get("/v1/users/me", as: student))
            #expect(try await client.allUsers(as: admin).count == 8)
        }
    }

    @Test("an admin deleting themselves answers 409 cannot_delete_self")
    func adminCannotDeleteSelf() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)

            let response = try await client.delete("/v1/users/\(admin.id)", as: admin)

            try expectProblem(response, .conflict, "cannot_delete_self")
        }
    }

    @Test("an admin deleting a teacher who owns courses answers 409 user_owns_courses")
    func teacherWithCoursesKept() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)

            let response = try await client.delete("/v1/users/\(teacher.id)", as: admin)

            try expectProblem(response, .conflict, "user_owns_courses")
            #expect(try await client.get("/v1/users/\(teacher.id)", as: admin).status == .ok)
        }
    }

    @Test("an admin deletes a teacher once their courses are reassigned")
    func teacherWithoutCoursesDeleted() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher2 = try await client.caller(SeededAccount.demoTeacher2)
            for course in try await client.allCourses(as: admin) where course.teacherId == teacher2.id {
                let moved = try await client.send(
                    .patch, "/v1/courses/\(course.id)", as: admin, body: ["teacher_id": admin.id, "version": course.version])
                #expect(moved.status == .ok)
            }

            let response = try await client.delete("/v1/users/\(teacher2.id)", as: admin)

            #expect(response.status == .noContent)
        }
    }

    @Test("a teacher deleting a user answers 403 forbidden")
    func teacherCannotDelete() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)

            let response = try await client.delete("/v1/users/\(student.id)", as: teacher)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student deleting their own account answers 403 forbidden")
    func studentCannotDeleteSelf() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)

            let response = try await client.delete("/v1/users/\(student.id)", as: student)

            try expectProblem(response, .forbidden, "forbidden")
        }
    }

    @Test("a student deleting a classmate gets 404")
    func studentCannotDeleteClassmate() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let classmate = try await client.caller(SeededAccount.demoStudent(2))

            let response = try await client.delete("/v1/users/\(classmate.id)", as: student)

            try expectProblem(response, .notFound, "not_found")
        }
    }
}
