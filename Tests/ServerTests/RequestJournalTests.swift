import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// The dev-mode request journal (`/__dev/tenants/{id}/requests`): each tenant's requests with
/// their path, caller, headers and faults, filtered, bounded, never holding a secret.
@Suite(.timeLimit(.minutes(3))) struct RequestJournalTests {
    struct Journal: Decodable {
        var items: [Entry]
        var recorded: Int
        var capacity: Int

        struct Entry: Decodable {
            var sequence: Int
            var tenant: String?
            var method: String
            var path: String
            var route: String
            var status: Int
            var userId: String?
            var email: String?
            var role: String?
            var idempotencyKey: String?
            var ifMatch: String?
            var replayed: Bool?
            var fault: Fault?
            var body: String?
        }

        struct Fault: Decodable {
            var action: String
        }
    }

    private func journal(_ client: some TestClientProtocol, _ query: String = "", tenant: String = "demo") async throws -> Journal {
        let response = try await client.send(.get, "/__dev/tenants/\(tenant)/requests\(query)")
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(Journal.self)
    }

    @Test("a tenant's requests are journaled with path, caller, Idempotency-Key, If-Match and the fault that fired; another tenant's and /__dev's are not; the filters combine")
    func journalsEachRequest() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            let course = try #require(try await client.allCourses(as: student).first)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)
            _ = try await client.enroll(in: course.id, as: student)
            // Given a keyed progress write, a conditional profile edit, a faulted read, and another tenant's read
            let put = try await client.putProgress(
                in: course.id, as: student, ["lesson_id": lesson.id, "watched_seconds": 30], headers: [.idempotencyKey: "journal-key-1"])
            #expect(put.status.code / 100 == 2, "\(put.text)")
            _ = try await client.send(.patch, "/v1/users/me", as: student, body: ["first_name": "Ana"], headers: [.ifMatch: "*"])
            try await client.injectFault(["method": "GET", "path": "/v1/courses", "action": "status", "status": 503, "times": 1])
            #expect(try await client.get("/v1/courses", as: student).status == .serviceUnavailable)
            let other = try await client.caller(SeededAccount.acmeStudent)
            _ = try await client.get("/v1/courses", as: other)

            // When the demo tenant's journal is read
            let all = try await journal(client)

            // Then each request is there, newest first, with what it sent and who sent it
            #expect(all.items.map(\.sequence) == all.items.map(\.sequence).sorted(by: >))
            #expect(all.recorded == all.items.first?.sequence)
            #expect(all.capacity == 1_000)
            let write = try #require(all.items.first { $0.method == "PUT" })
            #expect(write.path == "/v1/courses/\(course.id)/progress")
            #expect(write.route == "/v1/courses/{id}/progress")
            #expect(write.userId == student.id)
            #expect(write.email == "student1@demo.edugo.dev")
            #expect(write.role == "student")
            #expect(write.idempotencyKey == "journal-key-1")
            #expect(write.replayed == false)
            #expect(write.body == nil)
            #expect(all.items.first { $0.method == "PATCH" }?.ifMatch == "*")
            let faulted = try #require(all.items.first { $0.status == 503 })
            #expect(faulted.fault?.action == "status")
            #expect(all.items.contains { $0.route == "/v1/auth/login" && $0.userId == nil })
            #expect(all.items.allSatisfy { $0.tenant == "demo" && !$0.path.hasPrefix("/__dev") })
            #expect(try await journal(client, tenant: "acme").items.contains { $0.email == "student1@acme.example" })

            // And the filters pick and combine
            #expect(try await journal(client, "?method=put").items.map(\.path) == [write.path])
            #expect(try await journal(client, "?path=/v1/courses/*/progress").items.map(\.path) == [write.path])
            #expect(try await journal(client, "?path=/v1/courses/*/progress&method=GET").items.isEmpty)
            #expect(try await journal(client, "?path=/v1/courses/**&method=GET").items.count == 3)
            #expect(try await journal(client, "?status=5xx").items.map(\.status) == [503])
            let mine = try await journal(client, "?user=STUDENT1@demo.edugo.dev").items
            #expect(!mine.isEmpty && mine.allSatisfy { $0.userId == student.id })
            #expect(try await journal(client, "?user=\(student.id)").items.count == mine.count)
            #expect(try await journal(client, "?since=2999-01-01T00:00:00Z").items.isEmpty)
            #expect(try await journal(client, "?after=\(all.recorded - 1)").items.count == 1)

            // And the access log's ring keeps only the route, never the path or the caller
            let ring = try await client.send(.get, "/__dev/requests?tenant=demo").text
            #expect(!ring.contains(course.id) && !ring.contains("\"email\"") && !ring.contains("\"path\""))
        }
    }

    @Test("malformed filters answer 400 naming each; an unknown tenant 404; DELETE empties the journal")
    func refusalsAndClearing() async throws {
        try await withServer { client in
            _ = try await client.caller(.demoStudent)
            let refused = try await client.send(.get, "/__dev/tenants/demo/requests?method=TRACE&path=v1&status=6xx&since=yesterday&after=-1")
            let problem = try expectProblem(refused, .badRequest, "validation_failed")
            #expect(Set(problem.errors?.map(\.field) ?? []) == ["method", "path", "status", "since", "after"])
            try expectProblem(try await client.send(.get, "/__dev/tenants/nowhere/requests"), .notFound, "tenant_not_found")

            #expect(try await journal(client).recorded > 0)
            #expect(try await client.send(.delete, "/__dev/tenants/demo/requests").status == .noContent)
            let emptied = try await journal(client)
            #expect(emptied.items.isEmpty && emptied.recorded == 0)
            _ = try await client.caller(.demoStudent)
            #expect(try await journal(client).items.map(\.sequence) == [1])
        }
    }

    @Test("with --journal-bodies the JSON body is kept with every password and token redacted; without it, no body; no secret is ever in the journal")
    func bodiesAreRedacted() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.journalBodies = true
        try await withServer(configuration) { client in
            let pair = try await client.signIn(.demoStudent)
            _ = try await client.send(.post, "/v1/auth/refresh", tenant: "demo", json: TestJSON.body(["refresh_token": pair.refreshToken]))
            let text = try await client.send(.get, "/__dev/tenants/demo/requests").text
            let journal = try await journal(client)

            let login = try #require(journal.items.first { $0.route == "/v1/auth/login" }?.body)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(login.utf8)) as? [String: String])
            #expect(object == ["email": Credentials.demoStudent.email, "password": "[redacted]"])
            #expect(journal.items.first { $0.route == "/v1/auth/refresh" }?.body == #"{"refresh_token":"[redacted]"}"#)
            #expect(!text.contains(Credentials.demoStudent.password))
            #expect(!text.contains(pair.refreshToken) && !text.contains(pair.accessToken))
        }
        try await withServer { client in
            _ = try await client.signIn(.demoStudent)
            #expect(try await journal(client).items.allSatisfy { $0.body == nil })
        }
    }

    @Test("a kept body has every member named like a password or a token redacted, at any depth and in arrays; anything but JSON is described, not kept")
    func redaction() {
        let body = #"{"user":{"email":"a@b.c","newPassword":"x"},"items":[{"access_token":"t","n":1}],"refresh_token":"r","note":"token-free"}"#
        #expect(JournalBody.redacting(Data(body.utf8))
            == #"{"items":[{"access_token":"[redacted]","n":1}],"note":"token-free","refresh_token":"[redacted]","user":{"email":"a@b.c","newPassword":"[redacted]"}}"#)
        #expect(JournalBody.redacting(Data("password=hunter2".utf8)) == "[16 bytes, not JSON, not kept]")
    }

    @Test("each tenant keeps its last requests, the oldest dropped first; past the tenant limit the oldest journal goes")
    func bounded() {
        let journal = RequestJournal(capacity: 3, tenantLimit: 2)
        let entry = AccessLogEntry(
            timestamp: Date(), requestID: "r", tenant: "a", method: "GET", route: "/v1/courses", status: 200, durationMs: 1)
        for _ in 0..<5 { journal.append(entry, tenant: "a") }
        #expect(journal.entries(of: "a").entries.map(\.sequence) == [3, 4, 5])
        #expect(journal.entries(of: "a").recorded == 5)
        journal.append(entry, tenant: "b")
        journal.append(entry, tenant: "c")
        #expect(journal.entries(of: "a").entries.isEmpty)
        #expect(journal.entries(of: "b").recorded == 1 && journal.entries(of: "c").recorded == 1)
    }
}
