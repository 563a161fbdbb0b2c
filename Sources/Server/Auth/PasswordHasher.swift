import Dispatch
import Foundation
import HTTPTypes
import HummingbirdBcrypt

/// bcrypt hashing and verification, run on a global dispatch queue so the event loops never
/// block on the ~250 ms a cost-12 hash takes.
///
/// The hashes a request asks for pass a server-wide ``PasswordHashingGate``; seed passwords
/// (``hashOnce(_:)``) do not, since no request chooses them.
struct PasswordHasher: Sendable {
    let cost: UInt8
    private let gate: PasswordHashingGate
    private let memo = MemoizedHashes()

    /// - Parameters:
    ///   - maxConcurrent: The most hashes running at once (by default one per processor, at least two).
    ///   - maxWaiting: The most requests waiting for a slot (by default 32 per slot: a burst of sign-ins
    ///     waits, at cost 12, a few seconds at most); past that they answer `503 hashing_busy`.
    init(cost: UInt8, maxConcurrent: Int? = nil, maxWaiting: Int? = nil) {
        self.cost = cost
        let slots = maxConcurrent ?? Self.defaultConcurrency
        self.gate = PasswordHashingGate(slots: slots, queue: maxWaiting ?? slots * 32)
    }

    /// One slot per processor, at least two.
    static var defaultConcurrency: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// - Throws: `503 hashing_busy` when the gate is full.
    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await gated { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one `hash` was made from.
    ///
    /// bcrypt reads the password as a C string and only its first 72 bytes, so it would accept
    /// the real password followed by anything after byte 72 or after a NUL byte. Such a password
    /// can never be the one that was set, and is refused (after the same work, for timing).
    /// - Throws: `503 hashing_busy` when the gate is full.
    func verify(_ password: String, hash: String) async throws -> Bool {
        let bcryptSeesAll = password.utf8.count <= 72 && !password.utf8.contains(0)
        let matches = try await gated { Bcrypt.verify(password, hash: hash) }
        return bcryptSeesAll && matches
    }

    /// Verifies against a fixed hash so that an unknown email costs as much as a wrong password.
    func verifyAgainstDummy(_ password: String) async throws {
        let dummy = await hashOnce("edugo-dummy-password-for-timing")
        _ = try await verify(password, hash: dummy)
    }

    /// Hashes a well-known password once per process (seed accounts share their role's password).
    func hashOnce(_ password: String) async -> String {
        if let known = await memo.value(for: password) { return known }
        let cost = self.cost
        let hashed = await Self.offloaded { Bcrypt.hash(password, cost: cost) }
        await memo.store(hashed, for: password)
        return hashed
    }

    private func gated<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        guard await gate.enter() else { throw APIError.hashingBusy }
        let result = await Self.offloaded(work)
        await gate.leave()
        return result
    }

    private static func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: work())
            }
        }
    }
}

extension APIError {
    /// Every password-hashing slot is taken and the queue for them is full.
    static var hashingBusy: APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = "1"
        return APIError(
            .serviceUnavailable, code: "hashing_busy",
            detail: "The server is busy checking passwords. Try again in a second.", headers: headers)
    }
}

/// Seed-password hashes computed once per process.
private actor MemoizedHashes {
    private var hashes: [String: String] = [:]

    func value(for password: String) -> String? { hashes[password] }

    func store(_ hash: String, for password: String) { hashes[password] = hash }
}
