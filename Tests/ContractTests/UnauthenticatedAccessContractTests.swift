import Foundation
import Testing

/// 401 for every operation the spec secures with `bearerAuth`.
@Suite(.timeLimit(.minutes(3))) struct UnauthenticatedAccessContractTests {
    /// One call per secured operation without credentials, reduced to the generated 401 response.
    static let securedCalls: [String: @Sendable (Client) async throws -> Components.Responses.Unauthorized] = [
        "logout": { try await $0.logout().unauthorized },
        "getMe": { try await $0.getMe().unauthorized },
        "listUsers": { try await $0.listUsers().unauthorized },
        "createUser": {
            try await $0.createUser(body: .json(UserCreationContractTests.newUser())).unauthorized
        },
        "searchUsers": { try await $0.searchUsers(query: .init(q: "a")).unauthorized },
        "getMyProfile": { try await $0.getMyProfile().unauthorized },
        "updateMyProfile": { try await $0.updateMyProfile(body: .json(.init(firstName: "A", version: 1))).unauthorized },
        "listMyCourses": { try await $0.listMyCourses().unauthorized },
        "listChanges": { try await $0.listChanges().unauthorized },
        "streamChangeEvents": { try await $0.streamChangeEvents().unauthorized },
        "getUser": { try await $0.getUser(path: .init(id: "x")).unauthorized },
        "updateUser": { try await $0.updateUser(path: .init(id: "x"), body: .json(.init(firstName: "A", version: 1))).unauthorized },
        "deleteUser": { try await $0.deleteUser(path: .init(id: "x")).unauthorized },
        "listCourses": { try await $0.listCourses().unauthorized },
        "createCourse": { try await $0.createCourse(body: .json(.init(title: "T", category: .arts))).unauthorized },
        "searchCourses": { try await $0.searchCourses(query: .init(q: "a")).unauthorized },
        "getCourse": { try await $0.getCourse(path: .init(id: "x")).unauthorized },
        "updateCourse": { try await $0.updateCourse(path: .init(id: "x"), body: .json(.init(title: "T", version: 1))).unauthorized },
        "deleteCourse": { try await $0.deleteCourse(path: .init(id: "x")).unauthorized },
        "enroll": { try await $0.enroll(path: .init(id: "x")).unauthorized },
        "unenroll": { try await $0.unenroll(path: .init(id: "x")).unauthorized },
        "listLessons": { try await $0.listLessons(path: .init(id: "x")).unauthorized },
        "createLesson": { try await $0.createLesson(path: .init(id: "x"), body: .json(.init(title: "T"))).unauthorized },
        "getLesson": { try await $0.getLesson(path: .init(id: "x", lessonId: "y")).unauthorized },
        "updateLesson": {
            try await $0.updateLesson(path: .init(id: "x", lessonId: "y"), body: .json(.init(title: "T", version: 1))).unauthorized
        },
        "deleteLesson": { try await $0.deleteLesson(path: .init(id: "x", lessonId: "y")).unauthorized },
        "uploadLessonMedia": {
            try await $0.uploadLessonMedia(
                path: .init(id: "x", lessonId: "y"), headers: .init(ifMatch: "\"1\""), body: .pdf(.init(Array("%PDF-1.7".utf8)))
            ).unauthorized
        },
        "downloadLessonMedia": { try await $0.downloadLessonMedia(path: .init(id: "x", lessonId: "y")).unauthorized },
        "deleteLessonMedia": { try await $0.deleteLessonMedia(path: .init(id: "x", lessonId: "y")).unauthorized },
        "getProgress": { try await $0.getProgress(path: .init(id: "x")).unauthorized },
        "putProgress": { try await $0.putProgress(path: .init(id: "x"), body: .json(.init(lessonId: "y"))).unauthorized },
    ]

    @Test("every operation secured by bearerAuth answers 401 unauthorized with a Bearer challenge to anonymous callers")
    func everySecuredOperationChallenges() async throws {
        try await ContractHarness.with { api in
            for (operationID, call) in Self.securedCalls.sorted(by: { $0.key < $1.key }) {
                let refused = try await call(api.anonymous)

                let problem = try refused.body.applicationProblemJson
                #expect(problem.status == 401 && problem.code == "unauthorized", "\(operationID)")
                #expect(refused.headers.wwwAuthenticate == #"Bearer realm="edugo""#, "\(operationID)")
            }
        }
    }

    @Test("the secured calls cover every operation the spec does not mark security: []")
    func coversEverySecuredOperation() throws {
        let secured = try SpecDocument.load().operations.filter { !$0.isPublic }.map(\.operationID)

        #expect(Set(Self.securedCalls.keys) == Set(secured))
    }
}
