import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `/__dev/clock`: the server's movable clock, and the time-based parts that read it.
@Suite(.timeLimit(.minutes(3))) struct DevClockTests {
    @Test("GET /__dev/clock shows the server's time and a zero offset")
    func showsTime() async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/__dev/clock")

            #expect(response.status == .ok)
            HTTPHygieneTests.expectSecurityHeaders(response)
            let clock = try response.decode(ClockBody.self)
            #expect(clock.now == "2026-11-18T11:06:40Z")
            #expect(clock.offsetSeconds == 0)
            #expect(Set(try response.jsonObject().keys) == ["now", "offset_seconds"])
        }
    }

    @Test("POST /__dev/clock moves the time forward, DELETE returns to the configured time")
    func advanceAndReset() async throws {
        try await withServer { client in
            let moved = try await client.moveClock(by: 901)
            let again = try await client.moveClock(by: 99)

            #expect(moved.offsetSeconds == 901)
            #expect(moved.now == "2026-11-18T11:21:41Z")
            #expect(again.offsetSeconds == 1000)
            #expect(try await client.send(.get, "/__dev/clock").decode(ClockBody.self).offsetSeconds == 1000)

            let reset = try await client.send(.delete, "/__dev/clock")
            #expect(reset.status == .ok)
            #expect(try reset.decode(ClockBody.self).offsetSeconds == 0)
            #expect(try reset.decode(ClockBody.self).now == "2026-11-18T11:06:40Z")
        }
    }

    @Test("an access token expires when the clock is moved past its lifetime, and is valid again after a reset")
    func tokensExpireOnTheMovedClock() async throws {
        try await withServer { client in
            let student = try await client.caller(.demoStudent)
            #expect(try await client.me(student.token).status == .ok)

            _ = try await client.moveClock(by: 901)
            try expectTokenRefused(try await client.me(student.token))

            _ = try await client.send(.delete, "/__dev/clock")
            #expect(try await client.me(student.token).status == .ok)
        }
    }

    @Test("a rate-limit window passes when the clock is moved past it")
    func rateLimitWindowsPass() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.rateLimits = RateLimitTests.limits(loginPerAccount: 1, window: .seconds(900))
        try await withServer(configuration) { client in
            try expectProblem(try await RateLimitTests.failLogin(client), .unauthorized, "invalid_credentials")
            try expectProblem(try await RateLimitTests.failLogin(client), .tooManyRequests, "rate_limited")

            _ = try await client.moveClock(by: 901)

            #expect(try await client.login(.demoStudent).status == .ok)
        }
    }

    @Test("written timestamps come from the moved clock")
    func writesUseTheMovedClock() async throws {
        try await withServer { client in
            _ = try await client.moveClock(by: 3600)
            let student = try await client.caller(.demoStudent)
            let course = try await client.course(titled: SeededCourse.matematicas, as: student)
            let lesson = try #require(try await client.lessons(of: course.id, as: student).first)

            let progress = try await client.putProgress(in: course.id, as: student, ["lesson_id": lesson.id, "completed": true])
                .decode(LessonProgressBody.self)

            #expect(progress.updatedAt == "2026-11-18T12:06:40Z")
        }
    }

    @Test("malformed clock moves answer 400 validation_failed", arguments: [
        #"{"advance_seconds":-1}"#, #"{"advance_seconds":"soon"}"#, #"{}"#, #"{"advance_seconds":1,"tick":true}"#,
        #"{"advance_seconds":1.5}"#, #"{"advance_seconds":999999999999}"#,
    ])
    func validation(body: String) async throws {
        try await withServer { client in
            try expectProblem(try await client.send(.post, "/__dev/clock", json: body), .badRequest, "validation_failed")
            #expect(try await client.send(.get, "/__dev/clock").decode(ClockBody.self).offsetSeconds == 0)
        }
    }
}
