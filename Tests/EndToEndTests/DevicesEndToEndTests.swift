import AsyncHTTPClient
import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import NIOCore
import Testing

/// `GET /__dev/tenants/{id}/devices` (the console's Devices panel) on a live server: each open
/// event stream with its user and where its device stands in the feed, from its pulls and its
/// `Last-Event-ID`, and how many changes it is behind.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DevicesEndToEndTests {
    struct DeviceList: Decodable {
        struct Device: Decodable {
            var streamId: Int
            var userId: String
            var email: String?
            var role: String?
            var openSeconds: Int
            var cursorSeq: Int?
            var cursorFrom: String?
            var behind: Int?
        }

        var head: Int
        var items: [Device]
    }

    struct ChangePage: Decodable {
        var cursor: String
        var hasMore: Bool
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    static func devices(_ server: EduGoTestServer) async throws -> DeviceList {
        let text = try await plainGet(server.baseURL.appendingPathComponent("__dev/tenants/demo/devices"))
        return try decoder().decode(DeviceList.self, from: Data(text.utf8))
    }

    /// A dev `POST` answered 2xx; its JSON object.
    static func post(_ server: EduGoTestServer, _ path: String, body: String?) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: server.baseURL.appendingPathComponent(path).absoluteString)
        request.method = .POST
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect((200..<300).contains(Int(response.status.code)), "\(path): \(String(decoding: data, as: UTF8.self))")
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    /// Pulls the feed with `token` from `cursor` until it has no more; the last cursor.
    static func pull(_ server: EduGoTestServer, token: String, from cursor: String? = nil) async throws -> String {
        var cursor = cursor
        while true {
            var url = server.baseURL.absoluteString + "/v1/sync/changes?limit=500"
            if let cursor { url += "&cursor=\(cursor)" }
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 8 << 20)
            #expect(response.status.code == 200)
            let page = try decoder().decode(ChangePage.self, from: Data(buffer: body))
            cursor = page.cursor
            if !page.hasMore { return page.cursor }
        }
    }

    @Test("a stream is listed with its user; its session's pull places it at the head, a teacher's change puts it one behind, a pull catches up, and a stream resumed by Last-Event-ID stands where the event said")
    func devicesStandWhereTheyPulled() async throws {
        try await EventStreamTests.withDemoServer { server in
            // Given a student's device with its live stream open
            let teacher = try await serverView(server.baseURL, email: EventStreamTests.teacherEmail, password: EventStreamTests.teacherPassword)
            let (published, _) = try await EventStreamTests.teacherCourses(teacher)
            let token = try await EventStreamTests.token(server.baseURL)
            let stream = try await EventStreamReader.open(server.baseURL, token: token)
            #expect(await stream.wait { $0.changed.count == 1 })

            // Then the console lists it with its user, nowhere in the feed yet
            var listed = try await Self.devices(server)
            var device = try #require(listed.items.first)
            #expect(listed.items.count == 1)
            #expect(device.email == Demo.studentEmail && device.role == "student")
            #expect(device.cursorSeq == nil && device.behind == nil)

            // When the device pulls the feed to its end with its session's token
            let cursor = try await Self.pull(server, token: token)

            // Then it stands at the head, behind by nothing
            listed = try await Self.devices(server)
            device = try #require(listed.items.first)
            #expect(device.cursorFrom == "pull" && device.cursorSeq == listed.head && device.behind == 0)

            // When the teacher renames a published course, the device is one change behind
            _ = try await EventStreamTests.rename(published, to: "Renombrado para Devices", by: teacher)
            #expect(await stream.wait { $0.changed.count == 2 })
            listed = try await Self.devices(server)
            #expect(listed.items.first?.behind == 1)

            // And a pull from its cursor catches it up
            _ = try await Self.pull(server, token: token, from: cursor)
            listed = try await Self.devices(server)
            #expect(listed.items.first?.behind == 0)
            let lastEvent = try #require(await stream.changed.last?.id)
            await stream.close()

            // When the device reconnects with the last event's id, it stands where that event said
            let resumed = try await EventStreamReader.open(server.baseURL, token: token, lastEventID: lastEvent)
            var standing: DeviceList.Device?
            for _ in 0..<50 {
                standing = try await Self.devices(server).items.first { $0.cursorFrom == "last_event_id" }
                if standing != nil { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(standing?.behind == 0)
            #expect(standing?.cursorSeq == listed.head)

            // When the tenant is restored to a snapshot (its session kept), the position is of a history that is gone
            let snapshot = try await Self.post(server, "__dev/tenants/demo/snapshots", body: nil)
            let snapshotID = try #require(snapshot["id"] as? String)
            _ = try await Self.post(server, "__dev/tenants/demo/restore", body: "{\"snapshot_id\":\"\(snapshotID)\"}")
            let forgotten = try await Self.devices(server).items
            #expect(forgotten.count == 1 && forgotten.first?.cursorSeq == nil && forgotten.first?.behind == nil)
            await resumed.close()
        }
    }
}
