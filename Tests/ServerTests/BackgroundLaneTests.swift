import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Heavy requests read and encode on the background lane, at a lower priority and never more at
/// once than it has threads; cheap ones keep GRDB's readers and answer while the lane is full.
@Suite(.timeLimit(.minutes(1))) struct BackgroundLaneTests {
    /// Holds the threads that reach it until released (or five seconds passed).
    final class ThreadHold: Sendable {
        private let release = DispatchSemaphore(value: 0)
        private let arrivals = Mutex(0)

        var arrived: Int { arrivals.withLock { $0 } }

        /// Blocks the calling thread: what a long read does to it.
        func hold() {
            arrivals.withLock { $0 += 1 }
            _ = release.wait(timeout: .now() + 5)
        }

        func releaseAll(_ count: Int) {
            for _ in 0..<count { release.signal() }
        }
    }

    static func database() throws -> TenantDatabase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lane-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try TenantDatabase.open(tenantID: try #require(TenantID("lane")), at: directory.appendingPathComponent("lane.sqlite"))
    }

    @Test("a route's cost decides where each request's reads run: searches, offset pages and heavy routes on the lane")
    func placement() async throws {
        let database = try Self.database()
        let whereReadsRun: @Sendable (Request, EduGoRequestContext) async throws -> String = { _, _ in
            try await database.read { _ in BackgroundLane.isCurrentThread ? "lane" : "grdb" }
        }
        var routes = RouteTable()
        routes.add(.get, "/heavy", cost: .heavy, whereReadsRun)
        routes.add(.get, "/light", whereReadsRun)
        routes.add(.get, "/list", cost: .listPage, whereReadsRun)
        let router = RouteTable.makeRouter()
        routes.install(on: router)

        try await Application(router: router).test(.router) { client in
            for (uri, expected) in [
                ("/heavy", "lane"), ("/light", "grdb"), ("/list", "grdb"), ("/list?page=1", "grdb"),
                ("/list?after=abc&limit=100", "grdb"), ("/list?q=alg", "lane"), ("/list?page=2", "lane"),
            ] {
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(String(buffer: answer.body) == expected, "\(uri)")
            }
        }
    }

    @Test("a read of a task with a lane runs on the lane's thread, and only then")
    func readsOnTheLane() async throws {
        let database = try Self.database()

        let onLane = try await ReadPlacement.$lane.withValue(BackgroundLane.shared) {
            try await database.read { _ in BackgroundLane.isCurrentThread }
        }
        let offLane = try await database.read { _ in BackgroundLane.isCurrentThread }

        #expect(onLane)
        #expect(!offLane)
    }

    @Test("cheap reads answer at once while more heavy reads than the database has readers hold the lane")
    func cheapReadsPassAFullLane() async throws {
        let database = try Self.database()
        let hold = ThreadHold()
        // One more than the pool's four readers: read on GRDB's queues, they would hold them all.
        let heavy = 5
        var routes = RouteTable()
        routes.add(.get, "/hold", cost: .heavy) { _, _ in
            try await database.read { _ in hold.hold() }
            return "held"
        }
        routes.add(.get, "/ping") { _, _ in String(try await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") ?? 0 }) }
        let router = RouteTable.makeRouter()
        routes.install(on: router)

        try await Application(router: router).test(.router) { client in
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<heavy {
                    group.addTask { _ = try await client.execute(uri: "/hold", method: .get) }
                }
                while hold.arrived < BackgroundLane.shared.threadCount, started.duration(to: .now) < .seconds(5) {
                    try await Task.sleep(for: .milliseconds(5))
                }
                for _ in 0..<20 {
                    let answer = try await client.execute(uri: "/ping", method: .get)
                    #expect(String(buffer: answer.body) == "1")
                }
                let pinged = started.duration(to: .now)
                // Only the lane's threads read; the other heavy requests waited for them.
                #expect(hold.arrived == BackgroundLane.shared.threadCount)
                hold.releaseAll(heavy)
                try await group.waitForAll()
                #expect(pinged < .seconds(2), "20 cheap reads took \(pinged) beside \(heavy) held heavy ones")
            }
        }
    }
}
