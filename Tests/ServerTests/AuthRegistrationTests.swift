import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

@Suite(.timeLimit(.minutes(3))) struct AuthRegistrationTests {
    @Test("registering answers 202 accepted and creates an unverified student")
    func registerCreatesUser() async throws {
        try await withServer { client in
            // Given a new email in the demo tenant
            let account = Credentials.newcomer()

            // When it registers
            let response = try await client.register(account, firstName: "Ana", lastName: "García")

            // Then the answer reveals nothing but acceptance
            #expect(response.status == .accepted)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.location] == nil)
            #expect(response.text == #"{"status":"accepted"}"#)
            // And the account exists as a student, unverified until its token is used
            let login = try await client.login(account)
            try expectProblem(login, .forbidden, "email_not_verified")
            let token = try await client.mailedToken("verify_email", to: account.email, tenant: "demo")
            let user = try await client.verifyEmail(token: token, tenant: "demo").decode(UserBody.self)
            #expect(user.email == account.email)
            #expect(user.firstName == "Ana")
            #expect(user.lastName == "García")
            #expect(user.role == "student")
            #expect(user.createdAt == "2026-11-18T11:06:40Z")
        }
    }

    @Test("registering mails a verification token to the dev mailbox")
    func registerSendsVerificationMail() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()

            _ = try await client.register(account)

            let mails = try await client.mailbox(account.email, tenant: "demo")
            #expect(mails.count == 1)
            #expect(mails.first?.kind == "verify_email")
            #expect(mails.first?.to == account.email)
            #expect(mails.first.map { !$0.token.isEmpty } == true)
        }
    }

    @Test("registering a verified account's email answers exactly as a new one and mails the holder")
    func existingEmailIsNotRevealed() async throws {
        try await withServer { client in
            // Given a verified account, and an address nobody holds
            let holder = Credentials.newcomer("ana@example.com")
            try await client.registerVerified(holder)

            // When both register (the taken one with other capitalisation and spacing)
            let taken = try await client.register(.newcomer("  ANA@Example.COM "))
            let fresh = try await client.register(.newcomer("nobody.yet@example.com"))

            // Then the answers are identical
            #expect(taken.status == .accepted)
            #expect(taken.status == fresh.status)
            #expect(taken.text == fresh.text)
            #expect(taken.headers[.location] == nil && fresh.headers[.location] == nil)
            // And the holder is told, while their account and password are untouched
            let mails = try await client.mailbox(holder.email, tenant: "demo")
            #expect(mails.first?.kind == "account_exists")
            #expect(try await client.login(holder).status == .ok)
        }
    }

    @Test("concurrent registrations of one email create exactly one account and all answer 202")
    func concurrentDuplicateRegistrations() async throws {
        try await withServer { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await client.register(.newcomer("race@example.com")).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }

            #expect(statuses.allSatisfy { $0 == .accepted }, "\(statuses)")
            let verifications = try await client.mailbox("race@example.com", tenant: "demo").filter { $0.kind == "verify_email" }
            // Each registration is recorded on its own token; the first one followed ends the
            // others, so exactly one verifies.
            #expect(verifications.count == 8)
            var verified = 0
            for mail in verifications where try await client.verifyEmail(token: mail.token, tenant: "demo").status == .ok {
                verified += 1
            }
            #expect(verified == 1)
        }
    }

    @Test("a seeded account's email answers 202 and leaves the account alone")
    func seededEmailIsTaken() async throws {
        try await withServer { client in
            let response = try await client.register(.newcomer("Admin@demo.edugo.dev"))

            #expect(response.status == .accepted)
            #expect(try await client.login(.demoAdmin).status == .ok)
            #expect(try await client.mailbox("admin@demo.edugo.dev", tenant: "demo").first?.kind == "account_exists")
        }
    }

    @Test("a password shorter than 8 characters answers 400 validation_failed naming password")
    func shortPasswordIsRefused() async throws {
        try await withServer { client in
            var account = Credentials.newcomer()
            account.password = "Short-7"

            let problem = try expectProblem(try await client.register(account), .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["password"])
            #expect(problem.errors?.first?.code == "too_short")
        }
    }

    @Test("a password of 73 bytes answers 400 validation_failed; 72 bytes is accepted")
    func passwordByteLimit() async throws {
        try await withServer { client in
            var tooLong = Credentials.newcomer("long@example.com")
            tooLong.password = String(repeating: "a", count: 73)
            var longest = Credentials.newcomer("longest@example.com")
            longest.password = String(repeating: "a", count: 72)

            let refused = try expectProblem(try await client.register(tooLong), .badRequest, "validation_failed")
            let accepted = try await client.register(longest)

            #expect(refused.errors?.map(\.field) == ["password"])
            #expect(refused.errors?.first?.code == "too_long")
            #expect(accepted.status == .accepted)
        }
    }

    @Test("the minimum counts characters: 7 two-byte characters are refused, 8 are accepted")
    func passwordMinimumCountsCharacters() async throws {
        try await withServer { client in
            var seven = Credentials.newcomer("seven@example.com")
            seven.password = String(repeating: "ñ", count: 7)
            var eight = Credentials.newcomer("eight@example.com")
            eight.password = String(repeating: "ñ", count: 8)

            let refused = try expectProblem(try await client.register(seven), .badRequest, "validation_failed")
            let accepted = try await client.register(eight)

            #expect(refused.errors?.first?.code == "too_short")
            #expect(accepted.status == .accepted)
        }
    }

    @Test("a password of 37 characters but 74 UTF-8 bytes answers 400 validation_failed")
    func passwordLimitCountsBytes() async throws {
        try await withServer { client in
            var account = Credentials.newcomer()
            account.password = String(repeating: "é", count: 37)

            let problem = try expectProblem(try await client.register(account), .badRequest, "validation_failed")

            #expect(problem.errors?.first?.field == "password")
        }
    }

    @Test("a password containing a NUL byte is refused with 400 validation_failed")
    func passwordWithNULIsRefused() async throws {
        try await withServer { client in
            // bcrypt stops at the NUL: "a\0bcdefghij" passes the 8-byte rule but would be stored
            // as the one-character password "a".
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: #"{"email": "nul@example.com", "password": "a\u0000bcdefghij", "first_name": "N", "last_name": "U"}"#)

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["password"])
        }
    }

    @Test(
        "a malformed email answers 400 validation_failed naming email",
        arguments: ["not-an-email", "ana@", "@example.com", "ana@example", "ana maria@example.com", "a@b@example.com"])
    func malformedEmailIsRefused(email: String) async throws {
        try await withServer { client in
            let problem = try expectProblem(
                try await client.register(.newcomer(email)), .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["email"])
        }
    }

    @Test("several invalid fields are all reported in errors[]")
    func allFieldErrorsAreReported() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body(["email": "nope", "password": "short", "first_name": " ", "last_name": "Ok"]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(Set(problem.errors?.map(\.field) ?? []) == ["email", "password", "first_name"])
        }
    }

    @Test("an unknown body field answers 400 validation_failed naming the field")
    func unknownFieldIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body([
                    "email": "ana@example.com", "password": "Correct-Horse-9", "first_name": "Ana",
                    "last_name": "García", "role": "admin",
                ]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["role"])
            #expect(problem.errors?.first?.code == "unknown_field")
        }
    }

    @Test("a missing required field answers 400 validation_failed naming it")
    func missingFieldIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body(["email": "ana@example.com", "password": "Correct-Horse-9", "first_name": "Ana"]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["last_name"])
        }
    }

    @Test("a body that is not JSON answers 400 malformed_json", arguments: [#"{"email": "#, "email=a@b.c", "[1, 2]", ""])
    func malformedJSONIsRefused(body: String) async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/v1/auth/register", tenant: "demo", json: body)

            try expectProblem(response, .badRequest, "malformed_json")
        }
    }

    @Test("a member of the wrong JSON type answers 400 validation_failed naming the field")
    func wrongTypeIsAFieldError() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: #"{"email": "ana@example.com", "password": 12345678, "first_name": "Ana", "last_name": "G"}"#)

            // Well-formed JSON with a wrong type is a field error (errors[] says which field);
            // malformed_json is for bodies that are not JSON objects at all.
            try expectProblem(response, .badRequest, "validation_failed")
            let problem = try response.jsonObject()
            let errors = try #require(problem["errors"] as? [[String: Any]])
            #expect(errors.contains { $0["field"] as? String == "password" && $0["code"] as? String == "invalid_type" })
        }
    }

    @Test("a deeply nested body answers 400 json_too_deep")
    func deeplyNestedBodyIsRefused() async throws {
        try await withServer { client in
            let depth = 3_000
            let body = #"{"email": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"

            let response = try await client.send(.post, "/v1/auth/register", tenant: "demo", json: body)

            try expectProblem(response, .badRequest, "json_too_deep")
        }
    }

    @Test(
        "a body sent as anything but application/json answers 415 unsupported_media_type",
        arguments: ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"])
    func wrongContentTypeIsRefused(contentType: String) async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body(["email": "ana@example.com", "password": "Correct-Horse-9"]),
                contentType: contentType)

            try expectProblem(response, .unsupportedMediaType, "unsupported_media_type")
        }
    }

    @Test("a body without Content-Type answers 415 unsupported_media_type")
    func missingContentTypeIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo", json: TestJSON.body(["email": "ana@example.com"]),
                contentType: nil)

            try expectProblem(response, .unsupportedMediaType, "unsupported_media_type")
        }
    }

    @Test("application/json with a charset parameter is accepted")
    func jsonWithCharsetIsAccepted() async throws {
        try await withServer { client in
            let account = Credentials.newcomer()
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body([
                    "email": account.email, "password": account.password, "first_name": "Ana", "last_name": "G",
                ]),
                contentType: "application/json; charset=utf-8")

            #expect(response.status == .accepted)
        }
    }

    @Test("registering without X-Tenant-ID answers 400 validation_failed")
    func missingTenantHeaderIsRefused() async throws {
        try await withServer { client in
            let response = try await client.send(
                .post, "/v1/auth/register",
                json: TestJSON.body([
                    "email": "ana@example.com", "password": "Correct-Horse-9", "first_name": "Ana", "last_name": "G",
                ]))

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["X-Tenant-ID"])
        }
    }

    @Test(
        "a malformed X-Tenant-ID answers 400 validation_failed",
        arguments: ["Demo", "d", "-demo", "demo_1", "demo/../acme", String(repeating: "a", count: 64)])
    func malformedTenantHeaderIsRefused(tenant: String) async throws {
        try await withServer { client in
            let response = try await client.register(.newcomer(tenant: tenant))

            let problem = try expectProblem(response, .badRequest, "validation_failed")

            #expect(problem.errors?.map(\.field) == ["X-Tenant-ID"])
        }
    }

    @Test("an unknown tenant answers 404 tenant_not_found")
    func unknownTenantIsRefused() async throws {
        try await withServer { client in
            let response = try await client.register(.newcomer(tenant: "globex"))

            try expectProblem(response, .notFound, "tenant_not_found")
        }
    }

    @Test("a body whose Content-Length exceeds the configured limit answers 413 payload_too_large")
    func oversizedBodyIsRefused() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxBodySize = 1024
        try await withServer(configuration) { client in
            let padding = String(repeating: "x", count: 2000)
            let response = try await client.send(
                .post, "/v1/auth/register", tenant: "demo",
                json: TestJSON.body([
                    "email": "ana@example.com", "password": "Correct-Horse-9", "first_name": padding, "last_name": "G",
                ]))

            try expectProblem(response, .contentTooLarge, "payload_too_large")
        }
    }

    @Test("a body just under the configured limit is read")
    func bodyUnderLimitIsRead() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxBodySize = 1024
        try await withServer(configuration) { client in
            let body = TestJSON.body([
                "email": "ana@example.com", "password": "Correct-Horse-9", "first_name": "Ana", "last_name": "G",
            ])
            #expect(body.utf8.count < 1024)

            let response = try await client.send(.post, "/v1/auth/register", tenant: "demo", json: body)

            #expect(response.status == .accepted)
        }
    }

    @Test("a body over the default 1 MiB limit answers 413 payload_too_large")
    func defaultLimitIsOneMebibyte() async throws {
        try await withServer { client in
            let body = #"{"email": ""# + String(repeating: "a", count: 1 << 20) + #""}"#

            let response = try await client.send(.post, "/v1/auth/register", tenant: "demo", json: body)

            try expectProblem(response, .contentTooLarge, "payload_too_large")
        }
    }
}
