import EduGoSDK
import Foundation
import Testing

/// The SDK is checked against the contract too: every endpoint factory of `Endpoint` names an
/// operationId of openapi.yaml with the same method and path. A factory, or an operation's
/// method or path, that drifts fails here.
@Suite(.timeLimit(.minutes(1))) struct SDKEndpointContractTests {
    /// Every endpoint factory of the SDK, with the operationId it calls; `*` stands for each path
    /// parameter.
    static let endpoints: [(operationID: String, endpoint: Endpoint)] = [
        ("getHealth", .health), ("getJwks", .jwks),
        ("register", .Auth.register), ("login", .Auth.login), ("refreshTokens", .Auth.refresh), ("logout", .Auth.logout),
        ("forgotPassword", .Auth.forgotPassword), ("resetPassword", .Auth.resetPassword),
        ("resendVerification", .Auth.resendVerification), ("verifyEmail", .Auth.verifyEmail(token: "t")), ("getMe", .Auth.me),
        ("listUsers", .Users.list()), ("createUser", .Users.create), ("searchUsers", .Users.search("q")),
        ("getMyProfile", .Users.me), ("updateMyProfile", .Users.updateMe), ("listMyCourses", .Users.myCourses()),
        ("getUser", .Users.get("*")), ("updateUser", .Users.update("*")), ("deleteUser", .Users.delete("*")),
        ("listCourses", .Courses.list()), ("createCourse", .Courses.create), ("searchCourses", .Courses.search("q")),
        ("getCourse", .Courses.get("*")), ("updateCourse", .Courses.update("*")), ("deleteCourse", .Courses.delete("*")),
        ("enroll", .Courses.enroll("*")), ("unenroll", .Courses.unenroll("*")), ("listLessons", .Courses.lessons("*")),
        ("createLesson", .Courses.createLesson("*")), ("getLesson", .Courses.lesson("*", "*")),
        ("updateLesson", .Courses.updateLesson("*", "*")), ("deleteLesson", .Courses.deleteLesson("*", "*")),
        ("getProgress", .Courses.progress("*")), ("putProgress", .Courses.putProgress("*")),
        ("listChanges", .Sync.changes()),
        ("streamChangeEvents", .Sync.events),
    ]

    /// `METHOD /path` of an endpoint, its path parameters as `*`.
    static func signature(_ endpoint: Endpoint) -> String {
        let segments = (endpoint.version.map { [$0.rawValue] } ?? []) + endpoint.segments
        return "\(endpoint.method.rawValue) /\(segments.joined(separator: "/"))"
    }

    /// `METHOD /path` of an operation, its path parameters (`{id}`) as `*`.
    static func signature(_ operation: SpecDocument.Operation) -> String {
        let path = operation.path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "*", options: .regularExpression)
        return "\(operation.method) \(path)"
    }

    @Test("every SDK endpoint names an operationId of openapi.yaml with the same method and path")
    func endpointsMatchTheSpec() throws {
        let operations = Dictionary(try SpecDocument.load().operations.map { ($0.operationID, $0) }, uniquingKeysWith: { first, _ in first })
        for (operationID, endpoint) in Self.endpoints {
            let operation = try #require(operations[operationID], "\(operationID) is not an operation of openapi.yaml")
            #expect(Self.signature(endpoint) == Self.signature(operation), "\(operationID)")
            #expect(endpoint.requiresAuthentication == !operation.isPublic, "\(operationID): authentication")
        }
    }

    @Test("the list above holds every endpoint factory of the SDK")
    func everyFactoryIsListed() throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SDK/Client/Endpoint+Operations.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let factories = text.matches(of: /public static (var|func) \w+/).count
        #expect(factories == Self.endpoints.count)
        #expect(Set(Self.endpoints.map(\.operationID)).count == Self.endpoints.count)
    }
}
