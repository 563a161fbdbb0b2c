import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// The real `edugo` binary against a live server that goes away and comes back.
@Suite(.serialized, .timeLimit(.minutes(5))) struct CLIEndToEndTests {
    @Test("login, list, a progress write queued while the server is down, sync now, status shows nothing pending")
    func offlineRoundTrip() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let url = server.baseURL
            let cli = CLIRunner(server: url, dataDirectory: root.appendingPathComponent("cli"))

            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            let list = try await cli.run(["--json", "courses", "list"])
            #expect(list.status == 0)
            #expect(((list.json?["items"] as? [Any])?.count ?? 0) > 0)

            let view = try await serverView(url)
            let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses())
            let courseID = try #require(mine.items.first?.course.id)
            let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
            let lessonID = try #require(lessons.items.last?.id)
            #expect(try await cli.run(["lessons", "list", courseID]).status == 0)

            // The server goes away: the write is queued, `sync now` says the network is unreachable
            await server.stop()
            let set = try await cli.run(["progress", "set", courseID, lessonID, "--watched", "321"])
            #expect(set.status == 0)
            #expect(set.stdout.contains("queued"))
            let offlineSync = try await cli.run(["sync", "now"])
            #expect(offlineSync.status == 2)
            let cached = try await cli.run(["courses", "list"])
            #expect(cached.status == 0)
            #expect(cached.stdout.contains("offline"))

            // It comes back: the write syncs and nothing is pending
            try await server.restart()
            let sync = try await cli.run(["sync", "now"])
            #expect(sync.status == 0, "\(sync.stderr)")
            let status = try await cli.run(["sync", "status", "--json"])
            let json = try #require(status.json)
            #expect(json["pending"] as? Int == 0)
            #expect(json["dead_letters"] as? Int == 0)
            #expect(json["conflicts"] as? Int == 0)
            #expect(json["last_sync_at"] is String)
            #expect(json.keys.contains("oldest_pending_age_seconds"))
            let progress: CourseProgress = try await serverView(url).execute(endpoint: .Courses.progress(courseID))
            #expect(progress.lessons.first { $0.lessonId == lessonID }?.watchedSeconds == 321)
            await server.shutdown()
        }
    }

    @Test("after a restore, edugo sync now prints one line naming the reset, and --json has it as a member")
    func syncNowNamesAReset() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let cli = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("cli"))
            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            #expect(try await cli.run(["sync", "now"]).status == 0)
            let snapshot = try await server.snapshot(tenantID: "demo")

            // A restore: the next sync now is a reset and says so in one line
            try await server.restore(snapshot)
            let text = try await cli.run(["sync", "now"])
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n").filter { $0.hasPrefix("the server's data was replaced (snapshot restore or import): ") }
            #expect(lines.count == 1, "\(text.stdout)")
            #expect(lines.first?.hasSuffix("0 queued writes need attention") == true, "\(text.stdout)")

            // Another: --json has the reset as a member
            try await server.restore(snapshot)
            let json = try #require(try await cli.run(["--json", "sync", "now"]).json)
            let reset = try #require(json["reset"] as? [String: Any])
            #expect(reset["reason"] as? String == "timeline_changed")
            #expect(reset["needs_attention"] as? Int == 0)
            // And a sync with nothing replaced has none
            #expect(try #require(try await cli.run(["--json", "sync", "now"]).json)["reset"] is NSNull)
            await server.shutdown()
        }
    }

    @Test("edugo logout with only a dead letter is refused (exit 4) naming it; --discard-pending signs out")
    func logoutRefusesWithADeadLetter() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let url = server.baseURL
                let view = try await serverView(url)
                let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
                let all: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 100))
                let enrolled = Set(mine.items.map(\.course.id))
                let courseID = try #require(all.items.first { !enrolled.contains($0.id) }?.id)
                let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
                let lessonID = try #require(lessons.items.first?.id)
                let cli = CLIRunner(server: url, dataDirectory: root.appendingPathComponent("cli"))
                let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
                #expect(login.status == 0, "\(login.stderr)")

                // Given progress in a course the learner is not enrolled in: refused, a dead letter
                #expect(try await cli.run(["progress", "set", courseID, lessonID, "--watched", "30"]).status == 0)
                _ = try await cli.run(["sync", "now"])
                let status = try #require(try await cli.run(["sync", "status", "--json"]).json)
                #expect(status["pending"] as? Int == 0)
                #expect(status["dead_letters"] as? Int == 1)

                // When the learner logs out, then it is refused, naming the dead letter
                let refused = try await cli.run(["logout"])
                #expect(refused.status == 4)
                #expect(refused.stderr.contains("1 dead letter(s)"), "\(refused.stderr)")
                #expect(try await cli.run(["whoami"]).status == 0)

                // And with --discard-pending it signs out
                let discarded = try await cli.run(["logout", "--discard-pending"])
                #expect(discarded.status == 0, "\(discarded.stderr)")
                #expect(try await cli.run(["whoami"]).status != 0)
            }
        }
    }

    @Test("two edugo sync now at once on one store: every write applied once, no dead letter, the session kept")
    func twoProcessesDrainOneStore() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let url = server.baseURL
            let cli = CLIRunner(server: url, dataDirectory: root.appendingPathComponent("cli"))
            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            let view = try await serverView(url)
            let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses(limit: 100))
            let courseID = try #require(mine.items.first?.course.id)
            let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
            let lessonIDs = Array(lessons.items.map(\.id).prefix(6))
            try #require(lessonIDs.count >= 2)
            let before: CourseProgress = try await view.execute(endpoint: .Courses.progress(courseID))
            let versions = Dictionary(before.lessons.map { ($0.lessonId, $0.version) }, uniquingKeysWith: { $1 })

            // Given progress on several lessons queued while the server was away
            await server.stop()
            for (index, lessonID) in lessonIDs.enumerated() {
                #expect(try await cli.run(["progress", "set", courseID, lessonID, "--watched", "\(80_000 + index)"]).status == 0)
            }
            try await server.restart()

            // When two processes sync the same store at once
            async let first = cli.run(["sync", "now"])
            async let second = cli.run(["sync", "now"])
            let outcomes = try await [first, second]
            for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.stderr)") }
            // (a process that found the store busy leaves its share to the other; a last sync settles any rest)
            #expect(try await cli.run(["sync", "now"]).status == 0)

            // Then every write was applied exactly once, nothing was refused, and the session lives on
            let status = try #require(try await cli.run(["sync", "status", "--json"]).json)
            #expect(status["pending"] as? Int == 0)
            #expect(status["dead_letters"] as? Int == 0)
            let after: CourseProgress = try await serverView(url).execute(endpoint: .Courses.progress(courseID))
            for (index, lessonID) in lessonIDs.enumerated() {
                let record = after.lessons.first { $0.lessonId == lessonID }
                #expect(record?.watchedSeconds == 80_000 + index)
                #expect(record?.version == (versions[lessonID] ?? 0) + 1, "lesson \(lessonID)")
            }
            #expect(try await cli.run(["whoami"]).status == 0)
            await server.shutdown()
        }
    }

    @Test("bad arguments exit 1, a wrong password 3, an unreachable server 2, each with one line on stderr")
    func exitCodes() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
                let cli = CLIRunner(server: server.baseURL, dataDirectory: root)
                let usage = try await cli.run(["progress", "set"])
                #expect(usage.status == 1)
                let wrong = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: "not-the-password\n")
                #expect(wrong.status == 3)
                #expect(wrong.stderr.split(separator: "\n").count == 1)
                #expect(wrong.stderr.contains("incorrect"))
                let signedOut = try await cli.run(["whoami"])
                #expect(signedOut.status == 3)
            }
            let unreachable = CLIRunner(server: URL(string: "http://127.0.0.1:9")!, dataDirectory: root)
            let result = try await unreachable.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: "x\n")
            #expect(result.status == 2)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!result.stderr.contains("Error Domain"))
        }
    }
}
