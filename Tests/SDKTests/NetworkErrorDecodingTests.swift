import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every problem+json answer the server sends maps to one ``NetworkError``.
@Suite(.timeLimit(.minutes(2))) struct NetworkErrorDecodingTests {
    struct ProblemCase: Sendable, CustomTestStringConvertible {
        var status: Int
        var code: String
        var expected: NetworkError
        var testDescription: String { "\(status) \(code)" }
    }

    static let cases: [ProblemCase] = [
        ProblemCase(status: 400, code: "malformed_json", expected: .rejected(status: 400, code: "malformed_json")),
        ProblemCase(status: 400, code: "invalid_token", expected: .rejected(status: 400, code: "invalid_token")),
        ProblemCase(status: 401, code: "invalid_credentials", expected: .unauthorized(code: "invalid_credentials")),
        ProblemCase(status: 401, code: "unauthorized", expected: .unauthorized(code: "unauthorized")),
        ProblemCase(status: 401, code: "invalid_refresh_token", expected: .unauthorized(code: "invalid_refresh_token")),
        ProblemCase(status: 403, code: "forbidden", expected: .forbidden(code: "forbidden")),
        ProblemCase(status: 403, code: "tenant_mismatch", expected: .forbidden(code: "tenant_mismatch")),
        ProblemCase(status: 403, code: "email_not_verified", expected: .forbidden(code: "email_not_verified")),
        ProblemCase(status: 403, code: "field_not_writable", expected: .forbidden(code: "field_not_writable")),
        ProblemCase(status: 403, code: "not_enrolled", expected: .forbidden(code: "not_enrolled")),
        ProblemCase(status: 404, code: "not_found", expected: .notFound(code: "not_found")),
        ProblemCase(status: 404, code: "tenant_not_found", expected: .notFound(code: "tenant_not_found")),
        ProblemCase(status: 405, code: "method_not_allowed", expected: .rejected(status: 405, code: "method_not_allowed")),
        ProblemCase(status: 409, code: "email_taken", expected: .rejected(status: 409, code: "email_taken")),
        ProblemCase(status: 409, code: "idempotency_in_progress", expected: .rejected(status: 409, code: "idempotency_in_progress")),
        ProblemCase(status: 413, code: "payload_too_large", expected: .rejected(status: 413, code: "payload_too_large")),
        ProblemCase(status: 415, code: "unsupported_media_type", expected: .rejected(status: 415, code: "unsupported_media_type")),
        ProblemCase(status: 422, code: "idempotency_key_reused", expected: .rejected(status: 422, code: "idempotency_key_reused")),
        ProblemCase(status: 428, code: "precondition_required", expected: .rejected(status: 428, code: "precondition_required")),
        ProblemCase(status: 500, code: "internal_error", expected: .serverError(status: 500, code: "internal_error")),
        ProblemCase(status: 503, code: "unavailable", expected: .serverError(status: 503, code: "unavailable")),
    ]

    @Test("each server error code maps to its NetworkError", arguments: cases)
    func problemCodes(problem: ProblemCase) {
        let error = NetworkError.from(response: .problem(problem.status, code: problem.code))
        #expect(error == problem.expected)
        #expect(error.statusCode == problem.status)
    }

    static var course: [String: Any] {[
        "id": "c1", "title": "Álgebra", "description": "", "category": "math", "thumbnail_url": NSNull(),
        "published": true, "teacher_id": "t1", "lesson_count": 3, "version": 4,
        "created_at": "2026-11-20T09:00:00Z", "updated_at": "2026-11-21T10:30:00.250Z",
    ]}

    @Test("version_conflict carries the current version and the server's JSON, on 409 and on 412", arguments: [409, 412])
    func versionConflict(status: Int) throws {
        // Given the server's conflict answer with its current representation
        let response = APIResponse.problem(status, code: "version_conflict", extra: ["current_version": 4, "current": Self.course])
        // When it is decoded
        guard case .conflict(let version, let current) = NetworkError.from(response: response) else {
            Issue.record("not a conflict")
            return
        }
        // Then the version and the exact JSON object (keys as the server wrote them) are kept
        #expect(version == 4)
        let bytes = try #require(current)
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? NSDictionary)
        #expect(object == Self.course as NSDictionary)
        let decoded = try JSONCoding.decoder.decode(Course.self, from: bytes)
        #expect(decoded.teacherId == "t1" && decoded.version == 4)
    }

    @Test("another 409 or 412 without version_conflict is a rejection, not a conflict")
    func otherConflicts() {
        #expect(NetworkError.from(response: .problem(412, code: "precondition_failed")) == .rejected(status: 412, code: "precondition_failed"))
    }

    @Test("rate_limited with Retry-After in seconds keeps the delay")
    func rateLimitedSeconds() {
        let response = APIResponse.problem(429, code: "rate_limited", headers: ["Retry-After": "42"])
        #expect(NetworkError.from(response: response) == .rateLimited(retryAfter: .seconds(42)))
    }

    @Test("rate_limited with Retry-After as an HTTP-date measures from the given clock")
    func rateLimitedDate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let response = APIResponse.problem(429, code: "rate_limited", headers: ["Retry-After": HTTPDate.string(now + .seconds(15))])
        #expect(NetworkError.from(response: response, now: now) == .rateLimited(retryAfter: .seconds(15)))
    }

    @Test("rate_limited without Retry-After has no delay")
    func rateLimitedWithoutHeader() {
        #expect(NetworkError.from(response: .problem(429, code: "rate_limited")) == .rateLimited(retryAfter: nil))
    }

    @Test("validation_failed becomes a list of field errors")
    func validation() {
        let response = APIResponse.problem(400, code: "validation_failed", extra: [
            "errors": [
                ["field": "title", "code": "too_long", "message": "must be at most 200 characters"],
                ["field": "email", "code": "invalid_format", "message": "is not an email address"],
            ],
        ])
        #expect(NetworkError.from(response: response) == .validation([
            .init(field: "title", code: "too_long", message: "must be at most 200 characters"),
            .init(field: "email", code: "invalid_format", message: "is not an email address"),
        ]))
    }

    @Test("a 408 is a timeout")
    func requestTimeout() {
        #expect(NetworkError.from(response: .json(408, [:] as [String: String])) == .timeout)
    }

    @Test("an error without a problem body keeps its status")
    func nonProblemBody() {
        let html = APIResponse(statusCode: 502, headers: ["Content-Type": "text/html"], body: Data("<h1>Bad gateway</h1>".utf8))
        #expect(NetworkError.from(response: html) == .serverError(status: 502, code: nil))
        #expect(NetworkError.from(response: APIResponse(statusCode: 404, headers: [:], body: Data())) == .notFound(code: nil))
    }

    @Test("a server error answered through execute throws the mapped error")
    func executeThrowsMappedError() async {
        let transport = StubTransport(always: .problem(403, code: "email_not_verified"))
        let client = Fixture.client(transport: transport)
        await #expect(throws: NetworkError.forbidden(code: "email_not_verified")) {
            try await client.execute(endpoint: .Auth.register, body: Ping(ok: true), as: Ping.self)
        }
    }

    @Test("a 2xx body that does not decode is a decodingError")
    func undecodableSuccess() async {
        let client = Fixture.client(
            transport: StubTransport(always: .json(200, ["unexpected": 1])),
            store: await Fixture.store(holding: Fixture.session(expiresAt: .distantFuture)))
        await #expect {
            try await client.execute(endpoint: .Courses.list(), as: Ping.self)
        } throws: { error in
            if case .decodingError = error as? NetworkError { true } else { false }
        }
    }

    // MARK: Transport errors

    @Test(
        "connectivity failures are noConnection",
        arguments: [
            URLError.Code.notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
            .dnsLookupFailed,
        ])
    func noConnection(code: URLError.Code) {
        #expect(NetworkError.from(transportError: URLError(code)) == .noConnection)
    }

    @Test("a URL timeout is timeout")
    func timeout() {
        #expect(NetworkError.from(transportError: URLError(.timedOut)) == .timeout)
    }

    @Test("a cancelled URL load or a cancelled task is cancelled")
    func cancelled() {
        #expect(NetworkError.from(transportError: URLError(.cancelled)) == .cancelled)
        #expect(NetworkError.from(transportError: CancellationError()) == .cancelled)
    }

    @Test("a NetworkError passes through unchanged and anything else is unknown")
    func passThroughAndUnknown() {
        #expect(NetworkError.from(transportError: NetworkError.securityError("x")) == .securityError("x"))
        if case .unknown = NetworkError.from(transportError: URLError(.badServerResponse)) {} else {
            Issue.record("badServerResponse should be unknown")
        }
    }
}
