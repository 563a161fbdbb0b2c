import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Emails: bounded before any key is built, normalised (NFKC) once, no invisible characters.
@Suite(.timeLimit(.minutes(3))) struct EmailHardeningTests {
    // MARK: The rate limiter's table

    @Test("logins with huge emails answer 400 (413 past 8 KiB) and build no key from the email")
    func hugeEmailsBuildNoKeys() async throws {
        try await withServer(exposing: .testing()) { client, deps in
            // Given 30 logins, each with a different ~7 KB email
            for index in 0..<30 {
                let email = String(repeating: "a", count: 7_000) + "\(index)@demo.edugo.dev"
                let response = try await client.login(email: email, password: "Wrong-Password-1", tenant: "demo")
                // Then each is refused as invalid, before any account key exists
                try expectProblem(response, .badRequest, "validation_failed")
            }
            // And the only key is the address's attempt budget, counted before the body was read
            #expect(await deps.rateLimiter.keyCount == 1)

            // And a ~100 KB email is not even read
            let huge = String(repeating: "a", count: 100_000) + "@demo.edugo.dev"
            try expectProblem(
                try await client.login(email: huge, password: "Wrong-Password-1", tenant: "demo"), .contentTooLarge,
                "payload_too_large")
        }
    }

    @Test("an account key has the same size whatever the email")
    func accountKeysAreHashed() throws {
        let tenant = try #require(TenantID("demo"))
        let short = RateLimitKey.account("login", tenant: tenant, emailKey: "a@b.co")
        let long = RateLimitKey.account("login", tenant: tenant, emailKey: String(repeating: "x", count: 240) + "@b.co")
        #expect(short.subject.utf8.count == long.subject.utf8.count)
        #expect(!long.subject.contains("xxxx"))
    }

    @Test("the rate limiter keeps at most its capacity of keys")
    func limiterTableIsBounded() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(capacity: 100, now: { clock.now })
        let tenant = try #require(TenantID("demo"))
        let rule = RateLimits.Rule(limit: 5, window: .seconds(900))
        for index in 0..<1_000 {
            try await limiter.consume(.address("login", tenant: tenant, "10.0.\(index / 256).\(index % 256)"), rule)
        }
        #expect(await limiter.keyCount <= 100)
    }

    @Test("a full table forgets expired keys before live ones")
    func sweepPrefersExpiredKeys() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(capacity: 10, now: { clock.now })
        let tenant = try #require(TenantID("demo"))
        let rule = RateLimits.Rule(limit: 1, window: .seconds(60))
        let hot = RateLimitKey.address("login", tenant: tenant, "10.9.9.9")
        for index in 0..<9 { try await limiter.consume(.address("login", tenant: tenant, "10.0.0.\(index)"), rule) }
        clock.advance(by: 61)
        try await limiter.consume(hot, rule)
        // When the table overflows with new keys, the live key is still counted
        for index in 0..<5 { try await limiter.consume(.address("login", tenant: tenant, "10.1.0.\(index)"), rule) }
        await #expect(throws: APIError.self) { try await limiter.consume(hot, rule) }
    }

    // MARK: Look-alike emails

    @Test("emails with a byte-order mark, zero-width or control characters are refused at registration")
    func invisibleCharactersRefused() async throws {
        try await withServer { client in
            for email in ["\u{FEFF}admin@demo.edugo.dev", "admin\u{200B}@demo.edugo.dev", "ad\u{00AD}min@demo.edugo.dev",
                "admin@demo.edugo.dev\u{2060}", "admin\u{7}@demo.edugo.dev", "\tadmin@demo.edugo.dev"]
            {
                let response = try await client.register(.newcomer(email))
                let problem = try expectProblem(response, .badRequest, "validation_failed")
                #expect(problem.errors?.first?.field == "email", "\(email.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test("a full-width look-alike is the same account: NFKC before the uniqueness key")
    func compatibilityFormsAreTheSameAccount() async throws {
        try await withServer { client in
            // Given the demo admin, whose email is spelled with full-width letters and at sign
            let lookAlike = "ａｄｍｉｎ＠demo.edugo.dev"

            // When it is registered, it does not create a second account
            let registered = try await client.register(.newcomer(lookAlike))
            #expect(registered.status != .created, "body: \(registered.text)")

            // And it signs in to the real admin
            let login = try await client.login(email: lookAlike, password: "Demo-Admin-2026", tenant: "demo")
            #expect(login.status == .ok, "body: \(login.text)")
            #expect(try login.decode(TokenPair.self).user.email == "admin@demo.edugo.dev")
        }
    }

    @Test("registration stores the normalised, trimmed email")
    func storedEmailIsNormalised() async throws {
        try await withServer { client in
            let response = try await client.register(.newcomer("  ｎｅｗ.one@example.com\u{3000}"))
            #expect(response.status.code < 300, "body: \(response.text)")
            let mails = try await client.mailbox("new.one@example.com", tenant: "demo")
            #expect(mails.first?.to == "new.one@example.com")
        }
    }

    @Test("emails outside the RFC 5321 shape are refused")
    func shapeIsChecked() {
        for email in ["a@b", "@b.co", "a@.b.co", "a@b.co.", "a..b@c.co", ".a@b.co", "a@b..co", "a b@c.co",
            String(repeating: "a", count: 65) + "@b.co", "a@" + String(repeating: "b", count: 64) + ".co",
            "a@" + String(repeating: "b.", count: 130) + "co"]
        {
            #expect(EmailAddress.validate(email) != nil, "\(email)")
        }
        for email in ["ada@example.com", "a.b+tag@sub.example.co", "josé@ejemplo.es"] {
            #expect(EmailAddress.validate(email) == nil, "\(email)")
        }
    }
}
