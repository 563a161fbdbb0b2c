import EduGoSDK
import Foundation
import Testing

@testable import EduGoTesting

/// The simulation's single-flight oracle: a refresh sent while another of the same client waits
/// is counted, refreshes one after another are not, and other requests never are.
@Suite(.timeLimit(.minutes(2)))
struct RefreshWatchTests {
    /// Answers every request; a refresh waits until `holding` refreshes have arrived, so two
    /// concurrent ones are in flight together whatever the scheduler does.
    final class Network: HTTPTransport {
        let gate: Gate

        init(holding: Int) { gate = Gate(count: holding) }

        func send(_ request: APIRequest) async throws -> APIResponse {
            if request.url.path.hasSuffix("/v1/auth/refresh") { await gate.arrive() }
            return APIResponse(statusCode: 200, headers: [:], body: Data())
        }
    }

    actor Gate {
        let count: Int
        private var arrived = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(count: Int) { self.count = count }

        func arrive() async {
            arrived += 1
            if arrived >= count {
                waiting.forEach { $0.resume() }
                waiting = []
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    static func request(_ endpoint: Endpoint) throws -> APIRequest {
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        return APIRequest(endpoint: endpoint, url: try endpoint.url(relativeTo: base), timeout: .seconds(5))
    }

    @Test("two refreshes of one client in flight at once are one overlap, named by the device")
    func concurrentRefreshesAreCounted() async throws {
        let record = RefreshWatch.Record()
        let watch = RefreshWatch(Network(holding: 2), device: "device 7", record: record)
        let refresh = try Self.request(.Auth.refresh)
        async let first = watch.send(refresh)
        async let second = watch.send(refresh)
        _ = try await (first, second)
        #expect(record.take() == ["device 7"])
        #expect(record.take().isEmpty)
    }

    @Test("refreshes one after another, and other requests at the same time, are not counted")
    func sequentialRefreshesAreNot() async throws {
        let record = RefreshWatch.Record()
        let watch = RefreshWatch(Network(holding: 1), device: "device 1", record: record)
        let refresh = try Self.request(.Auth.refresh)
        _ = try await watch.send(refresh)
        _ = try await watch.send(refresh)
        async let one = watch.send(try Self.request(.Courses.list(limit: 5)))
        async let two = watch.send(try Self.request(.Courses.list(limit: 5)))
        _ = try await (one, two)
        #expect(record.take().isEmpty)
    }
}
