import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Audit issue 31, item 7: IPv6 clients are counted per /64, and a full limiter table never
/// forgets an account's live failures.
@Suite struct RateLimitKeyNetworkTests {
    @Test("IPv6 addresses of one /64 share a key; other /64s, IPv4 and IPv4-mapped addresses are told apart as networks")
    func ipv6IsGroupedBySlash64() throws {
        let tenant = try #require(TenantID("demo"))
        func key(_ address: String) -> RateLimitKey { .address("login", tenant: tenant, address) }
        #expect(key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(key("2001:db8:1:2::1") == key("[2001:0db8:0001:0002:0:0:0:9]"))
        #expect(key("2001:db8:1:2::1") == key("2001:db8:1:2::1%eth0"))
        #expect(key("2001:db8:1:2::1") != key("2001:db8:1:3::1"))
        #expect(RateLimitKey.network(of: "2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(key("::ffff:10.0.0.1") == key("10.0.0.1"))
        #expect(key("10.0.0.1") != key("10.0.0.2"))
        #expect(RateLimitKey.devTenants("2001:db8::1") == RateLimitKey.devTenants("2001:db8::2"))
    }

    @Test("a request from another address of the same /64 finds the budget spent")
    func slash64SharesTheBudget() async throws {
        let limiter = RateLimiter(now: { Date() })
        let tenant = try #require(TenantID("demo"))
        let rule = RateLimits.Rule(limit: 2, window: .seconds(900))
        try await limiter.consume(.address("login", tenant: tenant, "2001:db8:5:6::1"), rule)
        try await limiter.consume(.address("login", tenant: tenant, "2001:db8:5:6::2"), rule)
        await #expect(throws: APIError.self) {
            try await limiter.consume(.address("login", tenant: tenant, "2001:db8:5:6:abcd::3"), rule)
        }
    }

    @Test("a table flooded with address keys keeps every account key that still holds events")
    func accountKeysSurviveAFlood() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(capacity: 10, now: { clock.now })
        let tenant = try #require(TenantID("demo"))
        let rule = RateLimits.Rule(limit: 1, window: .seconds(900))
        let accounts = (0..<5).map { RateLimitKey.account("login", tenant: tenant, emailKey: "victim\($0)@demo.edugo.dev") }
        for account in accounts { try await limiter.consume(account, rule) }
        // When 200 addresses each make a key, newest last
        for index in 0..<200 {
            clock.advance(by: 1)
            try await limiter.consume(.address("login", tenant: tenant, "10.2.\(index / 256).\(index % 256)"), rule)
        }
        // Then every account's spent budget is still counted
        for account in accounts {
            await #expect(throws: APIError.self) { try await limiter.consume(account, rule) }
        }
        #expect(await limiter.keyCount <= 10)
    }

    @Test("an address is counted by the 16 bytes inet_pton wrote: its first 8 as a /64; other text by its first 64 characters", arguments: [
        ("::", "0:0:0:0::/64"),
        ("[::1]", "0:0:0:0::/64"),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("::ffff:0.0.0.0", "0.0.0.0"),
        ("::ffff:255.255.255.255", "255.255.255.255"),
        ("10.0.0.1", "10.0.0.1"),
        ("", ""),
        ("a", "a"),
        (":", ":"),
        (String(repeating: "a", count: 64), String(repeating: "a", count: 64)),
        (String(repeating: "a", count: 65), String(repeating: "a", count: 64)),
        (String(repeating: "日本語 🎓", count: 20), String(String(repeating: "日本語 🎓", count: 20).prefix(64))),
    ])
    func networkEdges(_ address: String, _ expected: String) {
        #expect(RateLimitKey.network(of: address) == expected)
    }
}
