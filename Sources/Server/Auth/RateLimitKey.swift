import Crypto
import EduGoServerStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a rate limit counts against: an endpoint, a tenant and either a client address or an
/// account. Accounts are keyed by a SHA-256 of the normalised email, so a key's size never
/// depends on what a client sent.
struct RateLimitKey: Hashable, Sendable {
    let scope: String
    let tenant: TenantID?
    let subject: String

    /// A key counting per client address (an IPv6 client per /64).
    static func address(_ scope: String, tenant: TenantID, _ address: String) -> RateLimitKey {
        RateLimitKey(scope: scope + "|addr", tenant: tenant, subject: network(of: address))
    }

    /// Dev tenants created per client address (they belong to no tenant yet).
    static func devTenants(_ address: String) -> RateLimitKey {
        RateLimitKey(scope: "dev-tenants|addr", tenant: nil, subject: network(of: address))
    }

    /// Whether the key counts per account (rather than per address).
    var isAccount: Bool { scope.hasSuffix("|acct") }

    /// What an address is counted as: an IPv6 address by its /64 (one host usually holds a whole
    /// /64, so per-address keys would give it 2^64 budgets), an IPv4-mapped one as its IPv4
    /// address, anything else as written (at most 64 characters).
    static func network(of address: String) -> String {
        var text = address
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var bytes = in6_addr()
        guard text.contains(":"), inet_pton(AF_INET6, text, &bytes) == 1 else { return String(address.prefix(64)) }
        // Invariant: copies exactly the 16 bytes of an in6_addr that inet_pton filled.
        let octets = withUnsafeBytes(of: bytes) { Array($0) }
        if octets[0..<10].allSatisfy({ $0 == 0 }), octets[10] == 0xFF, octets[11] == 0xFF {
            return octets[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// A key counting per account, from an email ``EmailAddress`` already validated.
    static func account(_ scope: String, tenant: TenantID, emailKey: String) -> RateLimitKey {
        let digest = SHA256.hash(data: Data(emailKey.utf8))
        return RateLimitKey(scope: scope + "|acct", tenant: tenant, subject: Data(digest).base64EncodedString())
    }
}
