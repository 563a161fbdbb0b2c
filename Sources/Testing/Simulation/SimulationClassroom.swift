import EduGoSDK
import Foundation

/// The tenant a simulation runs in: two students, a teacher, an admin, two published courses and
/// a draft, one student enrolled in the first course; and the teacher's and the admin's own
/// clients for their edits.
struct SimulationClassroom: Sendable {
    static let password = "Simulation-Pass-2026"
    static let students = ["ana@sim.test", "ben@sim.test"]
    static let teacher = "teacher@sim.test"
    static let admin = "admin@sim.test"

    let tenantID: String
    let teacher: APIClient
    let admin: APIClient
    /// Every course of the tenant, in title order (the draft last).
    let courseIDs: [String]
    /// The students' user ids, by email.
    let studentIDs: [String: String]

    static var fixture: SeedTenant {
        SeedTenant(
            users: students.map { .init(email: $0, password: password, role: .student, firstName: "Learner") }
                + [.init(email: teacher, password: password, role: .teacher), .init(email: admin, password: password, role: .admin)],
            courses: [
                course("A", published: true, lessons: 4), course("B", published: true, lessons: 3),
                course("C draft", published: false, lessons: 2),
            ],
            enrollments: [.init(student: students[0], course: "A")])
    }

    private static func course(_ name: String, published: Bool, lessons: Int) -> SeedTenant.Course {
        SeedTenant.Course(
            key: name, title: "Course \(name)", category: "mathematics", published: published, teacher: teacher,
            lessons: (1...lessons).map { .init(key: "\(name)-\($0)", title: "Lesson \($0) of \(name)") })
    }

    init(server: EduGoTestServer) async throws {
        let tenant = try await server.seed(Self.fixture)
        tenantID = tenant.id
        teacher = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id, retryPolicy: .none))
        admin = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id, retryPolicy: .none))
        try await AuthService(client: teacher).login(email: Self.teacher, password: Self.password)
        try await AuthService(client: admin).login(email: Self.admin, password: Self.password)
        let page: Page<Course> = try await teacher.execute(endpoint: .Courses.list(limit: 100))
        courseIDs = page.items.sorted { $0.title < $1.title }.map(\.id)
        let users: Page<User> = try await admin.execute(endpoint: .Users.list(limit: 100))
        studentIDs = Dictionary(uniqueKeysWithValues: users.items.filter { Self.students.contains($0.email) }.map { ($0.email, $0.id) })
    }

    /// The teacher's courses as the server holds them now (drafts included).
    func courses() async throws -> [Course] {
        let page: Page<Course> = try await asTeacher { try await $0.execute(endpoint: .Courses.list(limit: 100)) }
        return page.items.sorted { $0.title < $1.title }
    }

    /// Sends `endpoint` as the teacher, with `members` as its JSON body and `If-Match: *` (the
    /// teacher's edit is not the subject).
    func teacherSends(_ endpoint: Endpoint, _ members: [String: Any]? = nil) async throws -> APIResponse {
        let body = try members.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await asTeacher { try await $0.send(endpoint: endpoint, body: body, headers: ["If-Match": "*"]) }
    }

    /// The role the student `email` holds now, as the admin reads it.
    func role(of email: String) async throws -> String {
        let user: User = try await signedIn(admin, as: Self.admin) { try await $0.execute(endpoint: .Users.get(studentIDs[email] ?? "")) }
        return user.role
    }

    /// The admin gives the student `email` the role `role` (`If-Match: *`), answering the status.
    func adminSets(role: String, of email: String) async throws -> Int {
        let body = try JSONSerialization.data(withJSONObject: ["role": role])
        return try await signedIn(admin, as: Self.admin) {
            try await $0.send(endpoint: .Users.update(studentIDs[email] ?? ""), body: body, headers: ["If-Match": "*"]).statusCode
        }
    }

    /// The lessons of course `id` as the teacher sees them, in the course's order.
    func lessons(of id: String) async throws -> [Lesson] {
        let list: LessonList = try await asTeacher { try await $0.execute(endpoint: .Courses.lessons(id)) }
        return list.items.sorted { ($0.order, $0.title) < ($1.order, $1.title) }
    }

    private func asTeacher<Value>(_ call: (APIClient) async throws -> Value) async throws -> Value {
        try await signedIn(teacher, as: Self.teacher, call)
    }

    /// Runs `call` with `client`, signing it in again as `email` once when the session is gone (a
    /// restore of a snapshot taken before its token was last rotated ends the session, as it would
    /// for any client).
    private func signedIn<Value>(_ client: APIClient, as email: String, _ call: (APIClient) async throws -> Value) async throws -> Value {
        do {
            return try await call(client)
        } catch NetworkError.sessionExpired, NetworkError.unauthorized(_) {
            try await AuthService(client: client).login(email: email, password: Self.password)
            return try await call(client)
        }
    }
}
