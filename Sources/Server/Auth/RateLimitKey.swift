import Crypto
import Foundation

/// What a rate limit counts against: an endpoint, a tenant and either a client address or an
/// account. Accounts are keyed by a SHA-256 of the normalised email, so a key's size never
/// depends on what a client sent.
struct RateLimitKey: Hashable, Sendable {
    let scope: String
    let tenant: TenantID?
    let subject: String

    /// A key counting per client address.
    static func address(_ scope: String, tenant: TenantID, _ address: String) -> RateLimitKey {
        RateLimitKey(scope: scope + "|addr", tenant: tenant, subject: String(address.prefix(64)))
    }

    /// Dev tenants created per client address (they belong to no tenant yet).
    static func devTenants(_ address: String) -> RateLimitKey {
        RateLimitKey(scope: "dev-tenants|addr", tenant: nil, subject: String(address.prefix(64)))
    }

    /// A key counting per account, from an email ``EmailAddress`` already validated.
    static func account(_ scope: String, tenant: TenantID, emailKey: String) -> RateLimitKey {
        let digest = SHA256.hash(data: Data(emailKey.utf8))
        return RateLimitKey(scope: scope + "|acct", tenant: tenant, subject: Data(digest).base64EncodedString())
    }
}
