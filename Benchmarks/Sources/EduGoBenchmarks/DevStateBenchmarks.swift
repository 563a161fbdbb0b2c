import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation

/// `EduGoBenchmarks devstate`: what a test suite pays for a known state, through `EduGoTesting`
/// in-process (bcrypt at its test cost, 4).
///
/// - *test setup*: a fresh tenant from a 20-course fixture (`seed(_:)`), a sign-in through the
///   SDK and one request (the course list), end to end; and each of the three parts.
/// - *snapshot*: saving and restoring a tenant of 1,000 courses with 5 lessons each (seeded at
///   start from a seed file), through the dev endpoints.
struct DevStateBenchmarks {
    var runs: Int

    /// A fixture of `courses` published courses with `lessons` lessons each, one teacher and one student.
    static func fixture(courses: Int, lessons: Int, id: String? = nil) -> SeedTenant {
        let teacher = "teacher@bench.test"
        return SeedTenant(
            id: id,
            users: [
                .init(email: teacher, password: "Teacher-Pass-1", role: .teacher),
                .init(email: "student@bench.test", password: "Student-Pass-1", role: .student),
            ],
            courses: (0..<courses).map { index in
                .init(
                    key: "c\(index)", title: "Course \(index)", description: "A benchmark course.",
                    category: "science", teacher: teacher,
                    lessons: (0..<lessons).map { .init(title: "Lesson \($0)", content: "Content of lesson \($0).") })
            })
    }

    func run() async throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-devstate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let seedFile = scratch.appendingPathComponent("big.json")
        try JSONEncoder().encode(SeedFile(tenants: [Self.fixture(courses: 1_000, lessons: 5, id: "big")])).write(to: seedFile)

        let server = try await EduGoTestServer.start { configuration in
            configuration.seedFile = seedFile
            configuration.rateLimits.devTenantsPerAddress = .init(limit: 100_000, window: .seconds(60))
            configuration.rateLimits.loginPerAddress = .init(limit: 100_000, window: .seconds(60))
            configuration.rateLimits.loginPerAccount = .init(limit: 100_000, window: .seconds(60))
            configuration.rateLimits.loginAttemptsPerAddress = .init(limit: 100_000, window: .seconds(60))
        }
        let fixture = Self.fixture(courses: 20, lessons: 3)
        var total: [Double] = []
        var seed: [Double] = []
        var login: [Double] = []
        var request: [Double] = []
        // A few unmeasured rounds first: the first tenant pays for caches and code paths warming up.
        for round in 0..<(runs + 3) {
            let clock = ContinuousClock()
            let start = clock.now
            let tenant = try await server.seed(fixture)
            let seeded = clock.now
            let student = tenant.account(.student)
            let client = APIClient(configuration: APIConfiguration(baseURL: server.baseURL, tenantID: tenant.id))
            try await AuthService(client: client).login(email: student.email, password: student.password)
            let signedIn = clock.now
            let page: Page<Course> = try await client.execute(endpoint: .Courses.list(limit: 20))
            let end = clock.now
            guard page.items.count == 20 else { throw BenchError.unexpected("the fixture's tenant lists \(page.items.count) courses") }
            guard round >= 3 else { continue }
            total.append(Self.milliseconds(end - start))
            seed.append(Self.milliseconds(seeded - start))
            login.append(Self.milliseconds(signedIn - seeded))
            request.append(Self.milliseconds(end - signedIn))
        }

        var save: [Double] = []
        var restore: [Double] = []
        let base = try await server.snapshot(tenantID: "big")
        let size = base.sizeBytes
        // One unmeasured round first, as above.
        try await server.deleteSnapshot(try await server.snapshot(tenantID: "big"))
        try await server.restore(base)
        for _ in 0..<runs {
            let clock = ContinuousClock()
            let start = clock.now
            let snapshot = try await server.snapshot(tenantID: "big")
            save.append(Self.milliseconds(clock.now - start))
            try await server.deleteSnapshot(snapshot)
            let restoreStart = clock.now
            try await server.restore(base)
            restore.append(Self.milliseconds(clock.now - restoreStart))
        }
        await server.shutdown()

        let rows: [(String, Measurement, String)] = [
            ("test setup: fresh tenant from a 20-course fixture + sign-in + one request", Measurement(name: "", unit: "ms", samples: total), "≤ 20 ms"),
            ("— fresh tenant from the fixture (`seed(_:)`)", Measurement(name: "", unit: "ms", samples: seed), "—"),
            ("— sign-in through the SDK (bcrypt cost 4)", Measurement(name: "", unit: "ms", samples: login), "—"),
            ("— one request (20 courses)", Measurement(name: "", unit: "ms", samples: request), "—"),
            ("save a snapshot of a 1,000-course tenant (\(Self.kilobytes(size)))", Measurement(name: "", unit: "ms", samples: save), "≤ 50 ms"),
            ("restore that snapshot", Measurement(name: "", unit: "ms", samples: restore), "≤ 20 ms"),
        ]
        var lines = ["| measurement | median | min – max | target |", "|---|---:|---:|---|"]
        for (name, measurement, target) in rows {
            let format = EduGoBenchmarks.format
            lines.append("| \(name) | \(format(measurement.median)) ms | \(format(measurement.min)) – \(format(measurement.max)) ms | \(target) |")
        }
        return lines.joined(separator: "\n")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    static func kilobytes(_ bytes: Int) -> String {
        EduGoBenchmarks.format(Double(bytes) / 1024) + " KB"
    }
}
