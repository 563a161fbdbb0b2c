import EduGoServer
import EduGoTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct ReadmeQuickStartTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Whether README.md shows, as a Swift block opening with `imports`, the code between
    /// `// BEGIN <marker>` and `// END <marker>` of `Tests/EndToEndTests/<file>.swift`.
    static func readmeShows(_ file: String, marker: String, imports: [String]) throws -> Bool {
        let source = try String(contentsOf: root.appendingPathComponent("Tests/EndToEndTests/\(file).swift"), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(source.range(of: "// BEGIN \(marker)\n"))
        let end = try #require(source.range(of: "// END \(marker)"))
        let snippet = String(source[start.upperBound..<end.lowerBound])
        let header = imports.map { "import \($0)\n" }.joined()
        return readme.contains("```swift\n" + header + "\n" + snippet + "```")
    }

    @Test("the README's SDK quick start is the code this suite compiles")
    func readmeMatchesCompiledCode() throws {
        #expect(try Self.readmeShows("QuickStart", marker: "QUICK START", imports: ["EduGoSDK", "Foundation"]))
    }

    @Test("the README's testing example is the code this suite compiles")
    func readmeTestingExampleMatchesCompiledCode() throws {
        #expect(try Self.readmeShows("TestingQuickStart", marker: "TESTING QUICK START", imports: ["EduGoSDK", "EduGoTesting", "Foundation"]))
    }

    @Test("the README's testing example sees a lost answer retried and an expired token refreshed")
    func testingExampleRuns() async throws {
        let pages = try await survivesALostAnswerAndAnExpiredToken()
        #expect(pages.firstPage > 0)
        #expect(pages.afterExpiry == pages.firstPage)
    }

    @Test("the README's verification example is the code this suite compiles")
    func readmeVerifyExampleMatchesCompiledCode() throws {
        #expect(try Self.readmeShows("VerifyQuickStart", marker: "VERIFY QUICK START", imports: ["EduGoSDK", "EduGoTesting", "Foundation"]))
    }

    @Test("the README's verification example sees an enrollment sent twice, applied once and answered once")
    func verifyExampleRuns() async throws {
        try await withTemporaryDirectory { directory in
            try await enrollsExactlyOnce(storeIn: directory)
        }
    }

    @Test("the README's test-suites example is the code this suite compiles")
    func readmeTestSuitesExampleMatchesCompiledCode() throws {
        #expect(try Self.readmeShows("TestSuitesQuickStart", marker: "TEST SUITES QUICK START", imports: ["EduGoSDK", "EduGoTesting", "Foundation"]))
    }

    @Test("the README's test-suites example sees a change undone by a restore, a running device converge, and a tenant from its fixture")
    func testSuitesExampleRuns() async throws {
        let counts = try await eachTestStartsFromTheSameState()
        #expect(counts.changed == counts.seeded + 1)
        #expect(counts.restored == counts.seeded)
        #expect(counts.fresh == 1)
        // The long-lived device, never restarted, shows the restored catalogue after a reset.
        #expect(counts.onDevice == counts.restored)
        #expect(counts.reset == .timelineChanged)
    }

    @Test("the README's simulation example is the code this suite compiles")
    func readmeSimulationExampleMatchesCompiledCode() throws {
        #expect(try Self.readmeShows("SimulationQuickStart", marker: "SIMULATION QUICK START", imports: ["EduGoSDK", "EduGoTesting", "Foundation"]))
    }

    @Test("the README's simulation example runs three seeded classrooms without a violation")
    func simulationExampleRuns() async throws {
        let reports = try await simulateClassrooms()
        #expect(reports.map(\.seed) == [1, 2, 3])
        for report in reports { #expect(report.violations.isEmpty, "\(report)") }
    }

    @Test("the quick start signs in and lists courses against a live server")
    func quickStartRuns() async throws {
        let clock = TestClock(Date())
        try await EduGoTestServer.with({ $0 = .endToEnd(clock: clock) }) { server in
            let courses = try await quickStart(serverURL: server.baseURL)
            #expect(!courses.isEmpty)
            #expect(courses.allSatisfy { $0.published })
        }
    }
}
