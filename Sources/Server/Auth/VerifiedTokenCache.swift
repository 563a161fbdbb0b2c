import EduGoGuarded

/// Access tokens whose signature already verified, with their claims, so that a client sending
/// the same token on every request pays for the ES256 check once.
///
/// Only the signature check is skipped on a hit: expiry, not-before, issuer and audience are
/// checked again on every use (``TokenService/verify(_:)``), and the session and user are read
/// on every request (``Authenticator``), so logout, revocation, password reset, role changes and
/// deletion still take effect on the very next request. A token is the key itself, so a token
/// that differs in any byte is a miss. Bounded: when full, the cache starts over.
final class VerifiedTokenCache: Sendable {
    private let entries = Guarded<[String: AccessClaims]>([:])
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func claims(for token: String) -> AccessClaims? {
        entries.withLock { $0[token] }
    }

    func insert(_ claims: AccessClaims, for token: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = claims
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
