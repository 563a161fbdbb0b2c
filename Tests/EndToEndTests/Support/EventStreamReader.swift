import AsyncHTTPClient
import Foundation
import NIOCore

/// One client for every test stream, allowed as many connections per host as a test opens
/// streams (the shared client's pool stops at 8); it lives as long as the test process.
private let streamClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 512
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

/// Holds `GET /v1/sync/events` open over AsyncHTTPClient and records every event as it arrives,
/// parsed here independently of the SDK's parser.
actor EventStreamReader {
    struct Event: Sendable {
        var type: String
        var id: String?
        var data: String
        var arrivedAt: ContinuousClock.Instant
    }

    private(set) var status: Int?
    private(set) var headers: [String: String] = [:]
    private(set) var body = ""
    private(set) var events: [Event] = []
    private(set) var isClosed = false
    private var pending = ""
    private var reading: Task<Void, Never>?

    /// Opens a stream and waits for its response head (or its failure).
    static func open(
        _ baseURL: URL, token: String, tenant: String = "demo", lastEventID: String? = nil
    ) async throws -> EventStreamReader {
        let reader = EventStreamReader()
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent("v1/sync/events").absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "X-Tenant-ID", value: tenant)
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await streamClient.execute(request, timeout: .minutes(10))
        await reader.start(response)
        return reader
    }

    private func start(_ response: HTTPClientResponse) {
        status = Int(response.status.code)
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        reading = Task { [weak self] in
            do {
                for try await buffer in response.body {
                    await self?.received(String(buffer: buffer))
                }
            } catch {}
            await self?.closed()
        }
    }

    private func received(_ text: String) {
        body += text
        pending += text
        while let end = pending.range(of: "\n\n") {
            let block = pending[..<end.lowerBound]
            pending = String(pending[end.upperBound...])
            var event = Event(type: "message", id: nil, data: "", arrivedAt: .now)
            var fields = false
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "event": event.type = parts[1]; fields = true
                case "id": event.id = parts[1]; fields = true
                case "data": event.data = parts[1]; fields = true
                default: continue
                }
            }
            if fields { events.append(event) }
        }
    }

    private func closed() {
        isClosed = true
    }

    /// The `changed` events so far.
    var changed: [Event] { events.filter { $0.type == "changed" } }

    /// Waits until `condition` holds of the reader, or `timeout` passes; answers whether it held.
    func wait(
        timeout: Duration = .seconds(5), until condition: @Sendable (isolated EventStreamReader) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }

    /// Closes the connection and waits for the reading task to end.
    func close() async {
        reading?.cancel()
        await reading?.value
    }
}

/// The body of a plain `GET` of `url` (a dev or metrics endpoint), as text.
func plainGet(_ url: URL) async throws -> String {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
    return String(buffer: try await response.body.collect(upTo: 1 << 20))
}
