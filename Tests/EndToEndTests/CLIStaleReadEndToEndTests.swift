import EduGoSDK
import EduGoTesting
import EduGoServer
import Foundation
import Testing

/// The real `edugo` binary reads from its local store when the server cannot answer well — a
/// 503, a hang — and says why; answers that mean something (404) keep their meaning.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CLIStaleReadEndToEndTests {
    /// What a signed-in learner's CLI cached from the real server: an enrolled course (with
    /// progress) and a course it never looked at.
    struct Cached {
        var courseID: String
        var otherCourseID: String
    }

    /// Signs the CLI in against a live server and caches the course list, one course, its
    /// lessons and progress; the server is stopped afterwards.
    static func cacheFromLiveServer(_ directory: URL) async throws -> Cached {
        try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
            let url = server.baseURL
            let cli = CLIRunner(server: url, dataDirectory: directory)
            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")

            let view = try await serverView(url)
            let mine: Page<EnrolledCourse> = try await view.execute(endpoint: .Users.myCourses())
            let courseID = try #require(mine.items.first?.course.id)
            let all: Page<Course> = try await view.execute(endpoint: .Courses.list(limit: 100))
            let otherCourseID = try #require(all.items.first { $0.id != courseID }?.id)
            let lessons: LessonList = try await view.execute(endpoint: .Courses.lessons(courseID))
            let lessonID = try #require(lessons.items.first?.id)
            let set = try await cli.run(["progress", "set", courseID, lessonID, "--watched", "60"])
            #expect(set.status == 0, "\(set.stderr)")
            for command in [["courses", "list"], ["courses", "show", courseID], ["lessons", "list", courseID], ["progress", "show", courseID]] {
                let result = try await cli.run(command)
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            return Cached(courseID: courseID, otherCourseID: otherCourseID)
        }
    }

    @Test("with the server answering 503, every read answers from the store with the reason, exit 0, nothing on stderr")
    func serverUnavailable() async throws {
        try await withTemporaryDirectory { root in
            let cached = try await Self.cacheFromLiveServer(root)
            let troubled = TroubledServer(.status(503, retryAfter: 30))
            try await troubled.run { url in
                let cli = CLIRunner(server: url, dataDirectory: root)
                for command in [["courses", "list"], ["courses", "show", cached.courseID], ["lessons", "list", cached.courseID], ["progress", "show", cached.courseID]] {
                    let human = try await cli.run(command)
                    #expect(human.status == 0, "\(command): \(human.stderr)")
                    #expect(human.stdout.contains("server unavailable (503)"), "\(command): \(human.stdout)")
                    #expect(human.stderr.isEmpty, "\(command): \(human.stderr)")

                    let json = try await cli.run(["--json"] + command)
                    #expect(json.status == 0, "\(command): \(json.stderr)")
                    let object = try #require(json.json, "\(command): \(json.stdout)")
                    #expect(object["stale_reason"] as? String == "server_unavailable")
                    #expect(object["status"] as? Int == 503)
                    #expect(object["retry_after_seconds"] as? Int == 30)
                    #expect(object["offline"] as? Bool == false)
                }
                let list = try #require(try await cli.run(["--json", "courses", "list"]).json)
                #expect(((list["items"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == cached.courseID })
            }
            #expect(troubled.requestCount > 0)
        }
    }

    @Test("with a server that hangs, a read answers from the store within --timeout, not after a minute")
    func serverHangs() async throws {
        try await withTemporaryDirectory { root in
            let cached = try await Self.cacheFromLiveServer(root)
            try await TroubledServer(.hang).run { url in
                let cli = CLIRunner(server: url, dataDirectory: root)
                let started = ContinuousClock.now
                let result = try await cli.run(["--timeout", "2", "--json", "progress", "show", cached.courseID])
                let elapsed = ContinuousClock.now - started
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.json?["stale_reason"] as? String == "timed_out")
                #expect(elapsed < .seconds(10), "took \(elapsed)")

                let human = try await cli.run(["--timeout", "1", "courses", "list"])
                #expect(human.status == 0)
                #expect(human.stdout.contains("server timed out"))
                #expect(human.stderr.isEmpty)
            }
        }
    }

    @Test("a 404 on a cached course removes it from the local view")
    func notFoundRemoves() async throws {
        try await withTemporaryDirectory { root in
            let cached = try await Self.cacheFromLiveServer(root)
            let troubled = TroubledServer(.notFound(path: "/v1/courses/\(cached.courseID)"))
            try await troubled.run { url in
                let cli = CLIRunner(server: url, dataDirectory: root)
                let show = try await cli.run(["courses", "show", cached.courseID])
                #expect(show.status == 1)
                #expect(show.stderr.split(separator: "\n").count == 1, "\(show.stderr)")

                let offline = try #require(try await cli.run(["--offline", "--json", "courses", "list"]).json)
                let ids = ((offline["items"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
                #expect(!ids.isEmpty)
                #expect(!ids.contains(cached.courseID))
                #expect(offline["stale_reason"] as? String == "offline")
            }
        }
    }

    /// Signs the CLI in against a live server (which pulls what the learner sees), then has a
    /// teacher publish a course with a lesson the CLI's store has therefore never seen.
    static func signInThenNewCourse(_ directory: URL) async throws -> String {
        try await EduGoTestServer.with({ $0.seedDemoData = true }) { server in
            let cli = CLIRunner(server: server.baseURL, dataDirectory: directory)
            let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            let teacher = try await serverView(server.baseURL, email: "teacher1@demo.edugo.dev", password: "Demo-Teacher-2026")
            let course: Course = try await teacher.execute(
                endpoint: .Courses.create, body: ["title": AnyEncodable("Nunca visto"), "category": AnyEncodable("arts"), "published": AnyEncodable(true)])
            let _: Lesson = try await teacher.execute(endpoint: .Courses.createLesson(course.id), body: ["title": AnyEncodable("Primera")])
            return course.id
        }
    }

    @Test("nothing cached and a 503: exit 2 with exactly one line on stderr")
    func nothingCached() async throws {
        try await withTemporaryDirectory { root in
            let cached = Cached(courseID: "", otherCourseID: try await Self.signInThenNewCourse(root))
            try await TroubledServer(.status(503, retryAfter: nil)).run { url in
                let cli = CLIRunner(server: url, dataDirectory: root)
                let result = try await cli.run(["lessons", "list", cached.otherCourseID])
                #expect(result.status == 2)
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(result.stderr.contains("server unavailable (503)"))

                // -v shows the SDK's own log lines
                let verbose = try await cli.run(["-v", "lessons", "list", cached.otherCourseID])
                #expect(verbose.status == 2)
                #expect(verbose.stderr.split(separator: "\n").count > 1, "\(verbose.stderr)")
            }
        }
    }
}
