import Foundation
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// Audit issue 31, item 5: a server-wide bound on concurrent bcrypt work; past it and its queue,
/// `503 hashing_busy` with `Retry-After`.
@Suite(.timeLimit(.minutes(2))) struct PasswordHashingGateTests {
    @Test("the gate runs `slots` at once, queues `queue` more in order and refuses the rest")
    func gateBoundsWork() async throws {
        let gate = PasswordHashingGate(slots: 1, queue: 1)
        #expect(await gate.enter())
        // A second caller waits for the slot
        let waiter = Task { await gate.enter() }
        let deadline = ContinuousClock.now + .seconds(10)
        while await !gate.hasWaiters, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(await gate.hasWaiters, "the second caller did not wait")
        // A third finds the slot taken and the queue full
        #expect(await !gate.enter())
        // When the first leaves, the waiter gets the slot
        await gate.leave()
        #expect(await waiter.value)
        await gate.leave()
        #expect(await gate.enter())
    }

    @Test("logins past the hashing slots and their queue answer 503 hashing_busy with Retry-After")
    func busyServerAnswers503() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.passwordHashCost = 12
        configuration.maxConcurrentPasswordHashes = 1
        configuration.maxWaitingPasswordHashes = 0
        try await withServer(configuration) { client in
            // Given six logins of six accounts at once, each a cost-12 bcrypt
            let accounts = DemoAccount.seeded.filter { $0.tenant == "demo" }.prefix(6)
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for account in accounts {
                    group.addTask {
                        try await client.login(email: account.email, password: account.password, tenant: "demo")
                    }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            // Then those that found the one slot taken are refused at once, with Retry-After
            let busy = responses.filter { $0.status == .serviceUnavailable }
            #expect(!busy.isEmpty, "statuses: \(responses.map(\.status))")
            for response in busy {
                try expectProblem(response, .serviceUnavailable, "hashing_busy")
                #expect(response.headers[.retryAfter] == "1")
            }
            #expect(responses.allSatisfy { $0.status == .ok || $0.status == .serviceUnavailable })
            // And a refused login was not counted as a failure: the account signs in afterwards
            #expect(try await client.login(.demoAdmin).status == .ok)
        }
    }

    @Test("the passwords of a POST /__dev/tenants body are hashed through the gate: past it, 503 hashing_busy")
    func devTenantBodiesPassTheGate() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.passwordHashCost = 12
        configuration.maxConcurrentPasswordHashes = 1
        configuration.maxWaitingPasswordHashes = 0
        try await withServer(configuration) { client in
            // Given six tenant bodies at once, each with three accounts of their own passwords (cost-12 bcrypt each)
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for index in 0..<6 {
                    let users = (0..<3).map { user in
                        #"{"email": "u\#(user)@gate\#(index).test", "password": "Gate-Pass-\#(index)-\#(user)", "role": "student"}"#
                    }
                    let body = #"{"name": "Gate \#(index)", "users": [\#(users.joined(separator: ", "))]}"#
                    group.addTask { try await client.send(.post, "/__dev/tenants", json: body) }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            // Then those that found the one slot taken are refused at once, as a login would be
            let busy = responses.filter { $0.status == .serviceUnavailable }
            #expect(!busy.isEmpty, "statuses: \(responses.map(\.status))")
            for response in busy { try expectProblem(response, .serviceUnavailable, "hashing_busy") }
            #expect(responses.allSatisfy { $0.status == .created || $0.status == .serviceUnavailable })
        }
    }
}
