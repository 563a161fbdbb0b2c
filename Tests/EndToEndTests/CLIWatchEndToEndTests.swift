import EduGoTesting
import Foundation
import Testing

/// `edugo sync watch` in one terminal shows what `edugo progress set` does in another.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CLIWatchEndToEndTests {
    @Test("sync watch --json prints a progress change made by another device's CLI within a second; Ctrl-C exits 0")
    func watchShowsAnotherTerminalsWrite() async throws {
        try await withTemporaryDirectory { root in
            let server = try await EduGoTestServer.start { $0.seedDemoData = true }
            let watcher = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("watcher"))
            let writer = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("writer"))
            for cli in [watcher, writer] {
                let login = try await cli.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
                #expect(login.status == 0, "\(login.stderr)")
            }
            let synced = try await writer.run(["sync", "now"])
            #expect(synced.status == 0, "\(synced.stderr)")
            let courses = try #require(try await writer.run(["--json", "courses", "list"]).json?["items"] as? [[String: Any]])
            let enrolled = try await writer.run(["--json", "enroll", try #require(courses.first?["id"] as? String)])
            #expect(enrolled.status == 0, "\(enrolled.stderr)")
            let course = try #require(courses.first?["id"] as? String)
            let lessons = try #require(try await writer.run(["--json", "lessons", "list", course]).json?["items"] as? [[String: Any]])
            let lesson = try #require(lessons.first?["id"] as? String)

            let watch = Process()
            watch.executableURL = try CLIRunner.executable()
            watch.arguments = ["--server", server.baseURL.absoluteString, "--data-dir", watcher.dataDirectory.path, "--json", "sync", "watch"]
            // Its output goes to a file the test reads: no pipe, no dispatch source in this process.
            let outputFile = root.appendingPathComponent("watch.out")
            _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
            let output = try FileHandle(forWritingTo: outputFile)
            defer { try? output.close() }
            let printed = { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
            watch.standardOutput = output
            watch.standardError = FileHandle.nullDevice
            try watch.run()
            // The watcher holds its stream (the server counts it), and its first pull has settled.
            #expect(try await eventually(timeout: .seconds(20)) { try await LiveSyncEndToEndTests.openStreams(server) == 1 })
            try await Task.sleep(for: .milliseconds(500))

            let started = ContinuousClock.now
            let set = try await writer.run(["progress", "set", course, lesson, "--watched", "777"])
            #expect(set.status == 0, "\(set.stderr)")
            let line = "\"id\":\"\(lesson)\""
            #expect(try await eventually(timeout: .seconds(5)) { printed().contains(line) && printed().contains("\"type\":\"progress\"") })
            #expect(ContinuousClock.now - started < .seconds(2), "the progress line came after \(ContinuousClock.now - started)")
            let progressLine = printed().split(separator: "\n").first { $0.contains(line) }
            let decoded = try #require(progressLine.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect(decoded["op"] as? String == "upsert")
            #expect(decoded["course_id"] as? String == course)

            watch.interrupt()
            #expect(try await eventually(timeout: .seconds(10)) { !watch.isRunning })
            #expect(watch.terminationStatus == 0)
            await server.shutdown()
        }
    }
}
