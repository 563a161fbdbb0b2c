import Foundation
import Testing

/// 403 `tenant_mismatch` for every secured operation called with another tenant's `X-Tenant-ID`.
@Suite(.timeLimit(.minutes(3))) struct TenantMismatchContractTests {
    static let other = "acme"

    /// One call per secured operation naming the `acme` tenant, reduced to the generated 403
    /// response. Path ids need not exist: the tenant is checked before anything is looked up.
    static let mismatchedCalls: [String: @Sendable (Client) async throws -> Components.Responses.Forbidden] = [
        "logout": { try await $0.logout(headers: .init(xTenantID: other)).forbidden },
        "getMe": { try await $0.getMe(headers: .init(xTenantID: other)).forbidden },
        "listUsers": { try await $0.listUsers(headers: .init(xTenantID: other)).forbidden },
        "createUser": {
            try await $0.createUser(headers: .init(xTenantID: other), body: .json(UserCreationContractTests.newUser())).forbidden
        },
        "searchUsers": { try await $0.searchUsers(query: .init(q: "a"), headers: .init(xTenantID: other)).forbidden },
        "getMyProfile": { try await $0.getMyProfile(headers: .init(xTenantID: other)).forbidden },
        "updateMyProfile": {
            try await $0.updateMyProfile(headers: .init(xTenantID: other), body: .json(.init(firstName: "A", version: 1))).forbidden
        },
        "listMyCourses": { try await $0.listMyCourses(headers: .init(xTenantID: other)).forbidden },
        "listChanges": { try await $0.listChanges(headers: .init(xTenantID: other)).forbidden },
        "streamChangeEvents": { try await $0.streamChangeEvents(headers: .init(xTenantID: other)).forbidden },
        "getUser": { try await $0.getUser(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "updateUser": {
            try await $0.updateUser(
                path: .init(id: "x"), headers: .init(xTenantID: other), body: .json(.init(firstName: "A", version: 1))
            ).forbidden
        },
        "deleteUser": { try await $0.deleteUser(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "listCourses": { try await $0.listCourses(headers: .init(xTenantID: other)).forbidden },
        "createCourse": {
            try await $0.createCourse(headers: .init(xTenantID: other), body: .json(.init(title: "T", category: .arts))).forbidden
        },
        "searchCourses": { try await $0.searchCourses(query: .init(q: "a"), headers: .init(xTenantID: other)).forbidden },
        "getCourse": { try await $0.getCourse(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "updateCourse": {
            try await $0.updateCourse(
                path: .init(id: "x"), headers: .init(xTenantID: other), body: .json(.init(title: "T", version: 1))
            ).forbidden
        },
        "deleteCourse": { try await $0.deleteCourse(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "enroll": { try await $0.enroll(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "unenroll": { try await $0.unenroll(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "listLessons": { try await $0.listLessons(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "createLesson": {
            try await $0.createLesson(path: .init(id: "x"), headers: .init(xTenantID: other), body: .json(.init(title: "T")))
                .forbidden
        },
        "getLesson": {
            try await $0.getLesson(path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other)).forbidden
        },
        "updateLesson": {
            try await $0.updateLesson(
                path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other),
                body: .json(.init(title: "T", version: 1))
            ).forbidden
        },
        "deleteLesson": {
            try await $0.deleteLesson(path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other)).forbidden
        },
        "uploadLessonMedia": {
            try await $0.uploadLessonMedia(
                path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other, ifMatch: "\"1\""),
                body: .pdf(.init(Array("%PDF-1.7".utf8)))
            ).forbidden
        },
        "downloadLessonMedia": {
            try await $0.downloadLessonMedia(path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other)).forbidden
        },
        "deleteLessonMedia": {
            try await $0.deleteLessonMedia(path: .init(id: "x", lessonId: "y"), headers: .init(xTenantID: other)).forbidden
        },
        "getProgress": { try await $0.getProgress(path: .init(id: "x"), headers: .init(xTenantID: other)).forbidden },
        "putProgress": {
            try await $0.putProgress(path: .init(id: "x"), headers: .init(xTenantID: other), body: .json(.init(lessonId: "y")))
                .forbidden
        },
    ]

    @Test("every secured operation answers 403 tenant_mismatch when X-Tenant-ID names another tenant than the token")
    func everySecuredOperationRefusesAMismatch() async throws {
        try await ContractHarness.with { api in
            let admin = try await api.signIn(.demoAdmin)
            for (operationID, call) in Self.mismatchedCalls.sorted(by: { $0.key < $1.key }) {
                let problem = try await call(admin.client).body.applicationProblemJson

                #expect(problem.status == 403 && problem.code == "tenant_mismatch", "\(operationID)")
            }
        }
    }

    @Test("the mismatched calls cover every operation the spec does not mark security: []")
    func coversEverySecuredOperation() throws {
        let secured = try SpecDocument.load().operations.filter { !$0.isPublic }.map(\.operationID)

        #expect(Set(Self.mismatchedCalls.keys) == Set(secured))
    }
}
