import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `/__dev/tenants/{id}/snapshots` and `/restore`: a tenant's whole state saved and put back atomically.
@Suite struct TenantSnapshotTests {
    @Test("snapshot, 50 changes, restore: every read answers what it answered at the snapshot")
    func restoreBringsBackEveryRead() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let before = try await client.everyRead(admin: admin, student: student)
            let snapshot = try await client.saveSnapshot()

            let changes = try await client.makeFiftyChanges(admin: admin, teacher: teacher, student: student)
            #expect(changes == 50)
            let changed = try await client.everyRead(admin: admin, student: student)
            #expect(changed != before)

            let restored = try await client.restore(snapshot.id)
            #expect(restored.status == .ok)
            #expect(try restored.decode(SnapshotBody.self) == snapshot)
            let after = try await client.everyRead(admin: admin, student: student)
            #expect(after.keys.sorted() == before.keys.sorted())
            for (read, answer) in before {
                #expect(after[read] == answer, "\(read) differs after the restore")
            }
        }
    }

    @Test("a token issued after the snapshot is refused after the restore, one issued before still works")
    func sessionsAfterTheSnapshotEnd() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let snapshot = try await client.saveSnapshot()
            let newcomer = Credentials.newcomer()
            #expect(try await client.register(newcomer).status == .accepted)
            try expectProblem(try await client.login(newcomer), .forbidden, "email_not_verified")
            let later = try await client.caller(.demoTeacher)
            // Used last, so its session is in the live-session cache when the restore runs.
            #expect(try await client.me(later.token).status == .ok)

            #expect(try await client.restore(snapshot.id).status == .ok)

            try expectTokenRefused(try await client.me(later.token))
            #expect(try await client.me(student.token).status == .ok)
            // The account registered after the snapshot is gone.
            try expectProblem(try await client.login(newcomer), .unauthorized, "invalid_credentials")
        }
    }

    @Test("a change-feed cursor ahead of the restored head answers 410 cursor_expired")
    func cursorAheadOfTheRestoredHeadExpires() async throws {
        try await withServer { client in
            let teacher = try await client.caller(.demoTeacher)
            let snapshot = try await client.saveSnapshot()
            _ = try await client.createCourse(as: teacher, title: "Después del snapshot")
            var state = PulledState()
            try await client.pull(as: teacher, into: &state)
            let cursor = try #require(state.cursor)

            #expect(try await client.restore(snapshot.id).status == .ok)

            try expectProblem(try await client.changes(as: teacher, cursor: cursor), .gone, "cursor_expired")
        }
    }

    @Test("a list total counted before a restore is not answered after it, at the same change sequence")
    func listTotalsStartOverAfterARestore() async throws {
        try await withServer { client in
            let admin = try await client.caller(.demoAdmin)
            let teacher = try await client.caller(.demoTeacher)
            let snapshot = try await client.saveSnapshot()
            let count = try await client.coursePage(as: admin).total
            for number in 1...3 { _ = try await client.createCourse(as: teacher, title: "Nuevo \(number)") }
            #expect(try await client.coursePage(as: admin).total == count + 3)

            #expect(try await client.restore(snapshot.id).status == .ok)
            // Three changes that add no course bring the change sequence back to where the total was counted.
            let course = try #require(try await client.allCourses(as: teacher).first { $0.teacherId == teacher.id })
            var version = course.version
            for number in 1...3 {
                let response = try await client.send(
                    .patch, "/v1/courses/\(course.id)", as: teacher, body: ["title": "Renombrado \(number)", "version": version])
                version = try client.expectOK(CourseBody.self, response, "rename").version
            }

            let page = try await client.coursePage(as: admin)
            #expect(page.total == count)
            #expect(page.items.count == count)
        }
    }

    @Test("restores under concurrent reads: every list is one snapshot's whole state")
    func restoreIsAtomicForReaders() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            try await withServer(configuration) { client in
                let admin = try await client.caller(.demoAdmin)
                let teacher = try await client.caller(.demoTeacher)
                let small = try await client.coursePage(as: admin)
                let first = try await client.saveSnapshot()
                for number in 1...30 { _ = try await client.createCourse(as: teacher, title: "Curso \(number)") }
                let large = try await client.coursePage(as: admin)
                let second = try await client.saveSnapshot()
                let wholeStates = [Set(small.items.map(\.id)), Set(large.items.map(\.id))]
                #expect(wholeStates[0].count + 30 == wholeStates[1].count)

                let mixed = try await withThrowingTaskGroup(of: [String].self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            var seen: [String] = []
                            for _ in 0..<25 {
                                let page = try await client.coursePage(as: admin)
                                let ids = Set(page.items.map(\.id))
                                if !wholeStates.contains(ids) || page.total != page.items.count {
                                    seen.append("\(page.items.count) courses, total \(page.total)")
                                }
                            }
                            return seen
                        }
                    }
                    group.addTask {
                        for round in 0..<20 {
                            let response = try await client.restore(round.isMultiple(of: 2) ? first.id : second.id)
                            if response.status != .ok { return ["restore answered \(response.status)"] }
                        }
                        return []
                    }
                    var mixed: [String] = []
                    for try await seen in group { mixed += seen }
                    return mixed
                }
                #expect(mixed.isEmpty, "\(mixed.prefix(5))")
            }
        }
    }

    @Test("a file-backed snapshot lists its size and time, newest first, and restores")
    func fileBackedSnapshots() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            try await withServer(configuration) { client in
                let teacher = try await client.caller(.demoTeacher)
                let first = try await client.saveSnapshot()
                _ = try await client.createCourse(as: teacher, title: "Solo en el segundo")
                let second = try await client.saveSnapshot()

                let listed = try await client.snapshots()
                #expect(listed.map(\.id) == [second.id, first.id])
                #expect(first.sizeBytes > 0)
                #expect(first.tenantId == "demo")
                let file = directory.appendingPathComponent("snapshots/demo/\(first.id).sqlite")
                #expect(FileManager.default.fileExists(atPath: file.path))

                #expect(try await client.restore(first.id).status == .ok)
                #expect(try await client.allCourses(as: teacher).contains { $0.title == "Solo en el segundo" } == false)
                #expect(try await client.restore(second.id).status == .ok)
                #expect(try await client.allCourses(as: teacher).contains { $0.title == "Solo en el segundo" })
            }
        }
    }

    @Test("a tenant holds at most max-snapshots: one more answers 409 snapshot_limit until one is deleted")
    func limitPerTenant() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxSnapshotsPerTenant = 2
        try await withServer(configuration) { client in
            let first = try await client.saveSnapshot()
            _ = try await client.saveSnapshot()
            try expectProblem(try await client.send(.post, "/__dev/tenants/demo/snapshots"), .conflict, "snapshot_limit")
            // The limit is per tenant.
            #expect(try await client.send(.post, "/__dev/tenants/acme/snapshots").status == .created)

            #expect(try await client.send(.delete, "/__dev/tenants/demo/snapshots/\(first.id)").status == .noContent)
            #expect(try await client.send(.post, "/__dev/tenants/demo/snapshots").status == .created)
        }
    }

    @Test("unknown tenants, unknown snapshots and another tenant's snapshot answer 404; a bad body 400")
    func refusals() async throws {
        try await withServer { client in
            let acme = try await client.saveSnapshot(tenant: "acme")
            for (method, path) in [
                (HTTPRequest.Method.post, "/__dev/tenants/nope/snapshots"), (.get, "/__dev/tenants/nope/snapshots"),
                (.delete, "/__dev/tenants/nope/snapshots/\(acme.id)"),
            ] {
                try expectProblem(try await client.send(method, path), .notFound, "tenant_not_found")
            }
            try expectProblem(
                try await client.send(.post, "/__dev/tenants/nope/restore", json: #"{"snapshot_id":"x"}"#), .notFound,
                "tenant_not_found")
            try expectProblem(try await client.send(.delete, "/__dev/tenants/demo/snapshots/s-none"), .notFound, "snapshot_not_found")
            try expectProblem(try await client.restore("s-none"), .notFound, "snapshot_not_found")
            try expectProblem(try await client.restore(acme.id), .notFound, "snapshot_not_found")
            try expectProblem(
                try await client.send(.post, "/__dev/tenants/demo/restore", json: "{}"), .badRequest, "validation_failed")
            try expectProblem(
                try await client.send(.post, "/__dev/tenants/demo/restore", json: #"{"snapshot_id":7}"#), .badRequest,
                "validation_failed")
            #expect(try await client.snapshots().isEmpty)
        }
    }

    @Test("outside dev mode the snapshot endpoints do not exist")
    func devModeOnly() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.devMode = false
        configuration.seedDemoData = false
        configuration.passwordHashCost = 12
        try await withServer(configuration) { client in
            let save = try await client.send(.post, "/__dev/tenants/demo/snapshots")
            let restore = try await client.send(.post, "/__dev/tenants/demo/restore", json: "{}")
            #expect(save.status == .notFound)
            #expect(restore.status == .notFound)
        }
    }
}

/// A snapshot as `POST /__dev/tenants/{id}/snapshots` answers it.
struct SnapshotBody: Decodable, Equatable {
    var id: String
    var tenantId: String
    var createdAt: String
    var sizeBytes: Int
}

private struct SnapshotListBody: Decodable { var items: [SnapshotBody] }

extension TestClientProtocol {
    func saveSnapshot(tenant: String = "demo") async throws -> SnapshotBody {
        let response = try await send(.post, "/__dev/tenants/\(tenant)/snapshots")
        guard response.status == .created else {
            throw HelperFailure(description: "save snapshot answered \(response.status): \(response.text)")
        }
        return try response.decode(SnapshotBody.self)
    }

    func snapshots(tenant: String = "demo") async throws -> [SnapshotBody] {
        try expectOK(SnapshotListBody.self, try await send(.get, "/__dev/tenants/\(tenant)/snapshots"), "list snapshots").items
    }

    func restore(_ id: String, tenant: String = "demo") async throws -> TestResponse {
        try await send(.post, "/__dev/tenants/\(tenant)/restore", json: TestJSON.body(["snapshot_id": id]))
    }

    func coursePage(as caller: Caller) async throws -> PageBody<CourseBody> {
        try expectOK(PageBody<CourseBody>.self, try await get("/v1/courses?limit=100", as: caller), "list courses")
    }

    /// The full answer (status and body) of every read the two callers make: lists, each course's
    /// lessons and progress, and the change feed from scratch.
    func everyRead(admin: Caller, student: Caller) async throws -> [String: String] {
        var reads: [String: String] = [:]
        func read(_ uri: String, as caller: Caller, _ who: String) async throws {
            let response = try await get(uri, as: caller)
            reads["\(who) \(uri)"] = "\(response.status.code) \(try canonicalJSON(response.text))"
        }
        for (caller, who) in [(admin, "admin"), (student, "student")] {
            try await read("/v1/courses?limit=100", as: caller, who)
            try await read("/v1/users/me", as: caller, who)
            try await read("/v1/users/me/courses", as: caller, who)
            var cursor: String?
            for page in 0..<1_000 {
                let response = try await changes(as: caller, cursor: cursor, limit: 25)
                reads["\(who) changes page \(page)"] = "\(response.status.code) \(try canonicalJSON(response.text))"
                let body = try expectOK(ChangePageBody.self, response, "pull changes")
                cursor = body.cursor
                if !body.hasMore { break }
            }
        }
        try await read("/v1/users?limit=100", as: admin, "admin")
        for course in try await allCourses(as: admin) {
            try await read("/v1/courses/\(course.id)", as: admin, "admin")
            try await read("/v1/courses/\(course.id)/lessons?limit=100", as: admin, "admin")
            try await read("/v1/courses/\(course.id)/progress", as: student, "student")
        }
        return reads
    }

    /// 20 courses, 20 lessons, 4 enrollments with progress, a user and a profile change: 50 changes.
    func makeFiftyChanges(admin: Caller, teacher: Caller, student: Caller) async throws -> Int {
        var made = 0
        for number in 1...20 {
            let course = try await createCourse(as: teacher, title: "Curso nuevo \(number)")
            let lesson = try await createLesson(in: course.id, as: teacher, title: "Lección \(number)")
            made += 2
            if number <= 4 {
                guard (200..<300).contains(try await enroll(in: course.id, as: student).status.code) else {
                    throw HelperFailure(description: "enroll failed")
                }
                _ = try expectOK(
                    LessonProgressBody.self,
                    try await putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true]),
                    "progress")
                made += 2
            }
        }
        let user = try await send(
            .post, "/v1/users", as: admin,
            body: [
                "email": "nuevo@demo.edugo.dev", "password": "Nuevo-Usuario-2026", "first_name": "Nuevo",
                "last_name": "Usuario", "role": "student",
            ])
        guard user.status == .created else { throw HelperFailure(description: "create user: \(user.text)") }
        let me = try expectOK(UserBody.self, try await get("/v1/users/me", as: student), "me")
        let patched = try await send(
            .patch, "/v1/users/me", as: student, body: ["first_name": "Cambiada", "version": me.version])
        guard patched.status == .ok else { throw HelperFailure(description: "patch me: \(patched.text)") }
        return made + 2
    }
}

/// `text` (JSON) with its members sorted, each `cursor` left out and a problem's `request_id` too:
/// the server encodes members in no fixed order and gives each request its own id, and a cursor
/// names the timeline it was read on, which a restore replaces by design (`SyncTimelineTests`
/// covers what cursors say), so two answers are compared by the data they carry.
func canonicalJSON(_ text: String) throws -> String {
    func canonical(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, member) in object where key != "request_id" {
                result[key] = key == "cursor" ? "<cursor>" : canonical(member)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(canonical) }
        return value
    }
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    let data = try JSONSerialization.data(withJSONObject: canonical(parsed), options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
}
