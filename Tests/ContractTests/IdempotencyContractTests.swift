import Foundation
import Testing

/// `Idempotency-Key` on POST, PUT and PATCH.
@Suite(.timeLimit(.minutes(3))) struct IdempotencyContractTests {
    @Test("createUser repeated with the same Idempotency-Key and body replays the stored 201 with Idempotent-Replayed: true")
    func replaysACreate() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            let request = UserCreationContractTests.newUser()
            let key = UUID().uuidString

            let first = try await admin.client.createUser(headers: .init(idempotencyKey: key), body: .json(request)).created
            let replay = try await admin.client.createUser(headers: .init(idempotencyKey: key), body: .json(request)).created

            #expect(try replay.body.json == first.body.json)
            #expect(replay.headers.location == first.headers.location)
            #expect(first.headers.idempotentReplayed == nil)
            #expect(replay.headers.idempotentReplayed == ._true)
        }
    }

    @Test("enroll repeated with the same Idempotency-Key replays the stored 201")
    func replaysAnEnrollment() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent)
            let course = try await teacher.createCourse()
            let key = UUID().uuidString

            let first = try await student.client.enroll(path: .init(id: course.id), headers: .init(idempotencyKey: key)).created
            let replay = try await student.client.enroll(path: .init(id: course.id), headers: .init(idempotencyKey: key)).created

            #expect(try replay.body.json == first.body.json)
            #expect(replay.headers.idempotentReplayed == ._true)
        }
    }

    @Test(
        "every operation taking an Idempotency-Key answers 422 idempotency_key_reused to the key reused for another request",
        arguments: KeyedWrite.allCases)
    func refusesAReusedKey(_ write: KeyedWrite) async throws {
        try await ContractHarness.with { api in
            let problem = try await write.reuseKey(api, key: UUID().uuidString)

            expectProblem(problem, status: 422, code: "idempotency_key_reused")
        }
    }

    @Test("the keyed writes cover every operation of the spec that declares Idempotency-Key")
    func coversEveryKeyedOperation() throws {
        let keyed = try SpecDocument.load().operations.filter(\.acceptsIdempotencyKey).map(\.operationID)

        #expect(Set(KeyedWrite.allCases.map(\.rawValue)) == Set(keyed))
    }
}

/// The operations that take an `Idempotency-Key`, each able to spend a key on one request and
/// reuse it for a different one.
enum KeyedWrite: String, CaseIterable, Sendable {
    case createUser, updateMyProfile, updateUser, createCourse, updateCourse, enroll, createLesson, updateLesson, putProgress

    /// Succeeds once with `key`, then sends a different request with it and returns the generated 422 body.
    func reuseKey(_ api: ContractHarness, key: String) async throws -> Components.Schemas.Problem {
        switch self {
        case .createUser:
            let admin = try await api.signIn(.demoAdmin).client
            let headers = Operations.CreateUser.Input.Headers(idempotencyKey: key)
            _ = try await admin.createUser(headers: headers, body: .json(UserCreationContractTests.newUser())).created
            return try await admin.createUser(headers: headers, body: .json(UserCreationContractTests.newUser()))
                .unprocessableContent.body.applicationProblemJson
        case .updateMyProfile:
            let student = try await api.signIn(.demoStudent).client
            let headers = Operations.UpdateMyProfile.Input.Headers(idempotencyKey: key)
            _ = try await student.updateMyProfile(headers: headers, body: .json(.init(firstName: "A", version: 1))).ok
            return try await student.updateMyProfile(headers: headers, body: .json(.init(firstName: "B", version: 2)))
                .unprocessableContent.body.applicationProblemJson
        case .updateUser:
            let admin = try await api.signIn(.demoAdmin).client
            let student = try await api.signIn(.demoStudent).user
            let headers = Operations.UpdateUser.Input.Headers(idempotencyKey: key)
            _ = try await admin.updateUser(
                path: .init(id: student.id), headers: headers, body: .json(.init(lastName: "A", version: 1))
            ).ok
            return try await admin.updateUser(
                path: .init(id: student.id), headers: headers, body: .json(.init(lastName: "B", version: 2))
            ).unprocessableContent.body.applicationProblemJson
        case .createCourse:
            let teacher = try await api.signIn(.demoTeacher).client
            let headers = Operations.CreateCourse.Input.Headers(idempotencyKey: key)
            _ = try await teacher.createCourse(headers: headers, body: .json(.init(title: "A", category: .arts))).created
            return try await teacher.createCourse(headers: headers, body: .json(.init(title: "B", category: .arts)))
                .unprocessableContent.body.applicationProblemJson
        case .updateCourse:
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let headers = Operations.UpdateCourse.Input.Headers(idempotencyKey: key)
            _ = try await teacher.client.updateCourse(
                path: .init(id: course.id), headers: headers, body: .json(.init(title: "A", version: 1))
            ).ok
            return try await teacher.client.updateCourse(
                path: .init(id: course.id), headers: headers, body: .json(.init(title: "B", version: 2))
            ).unprocessableContent.body.applicationProblemJson
        case .enroll:
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoStudent).client
            let first = try await teacher.createCourse(title: "First")
            let second = try await teacher.createCourse(title: "Second")
            let headers = Operations.Enroll.Input.Headers(idempotencyKey: key)
            _ = try await student.enroll(path: .init(id: first.id), headers: headers).created
            return try await student.enroll(path: .init(id: second.id), headers: headers)
                .unprocessableContent.body.applicationProblemJson
        case .createLesson:
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let headers = Operations.CreateLesson.Input.Headers(idempotencyKey: key)
            _ = try await teacher.client.createLesson(path: .init(id: course.id), headers: headers, body: .json(.init(title: "A")))
                .created
            return try await teacher.client.createLesson(
                path: .init(id: course.id), headers: headers, body: .json(.init(title: "B"))
            ).unprocessableContent.body.applicationProblemJson
        case .updateLesson:
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)
            let path = Operations.UpdateLesson.Input.Path(id: course.id, lessonId: lesson.id)
            let headers = Operations.UpdateLesson.Input.Headers(idempotencyKey: key)
            _ = try await teacher.client.updateLesson(path: path, headers: headers, body: .json(.init(title: "A", version: 1))).ok
            return try await teacher.client.updateLesson(path: path, headers: headers, body: .json(.init(title: "B", version: 2)))
                .unprocessableContent.body.applicationProblemJson
        case .putProgress:
            let given = try await ProgressWriteContractTests.enrolled(api)
            let headers = Operations.PutProgress.Input.Headers(idempotencyKey: key)
            _ = try await given.student.client.putProgress(
                path: .init(id: given.course.id), headers: headers,
                body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 10))
            ).ok
            return try await given.student.client.putProgress(
                path: .init(id: given.course.id), headers: headers,
                body: .json(.init(lessonId: given.lesson.id, watchedSeconds: 20, version: 1))
            ).unprocessableContent.body.applicationProblemJson
        }
    }
}
