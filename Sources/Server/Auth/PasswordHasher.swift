import Dispatch
import HummingbirdBcrypt

/// bcrypt hashing and verification, run on a global dispatch queue so the event loops never
/// block on the ~250 ms a cost-12 hash takes.
struct PasswordHasher: Sendable {
    let cost: UInt8
    private let memo = MemoizedHashes()

    init(cost: UInt8) {
        self.cost = cost
    }

    func hash(_ password: String) async -> String {
        let cost = self.cost
        return await Self.offloaded { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one `hash` was made from.
    ///
    /// bcrypt reads the password as a C string and only its first 72 bytes, so it would accept
    /// the real password followed by anything after byte 72 or after a NUL byte. Such a password
    /// can never be the one that was set, and is refused (after the same work, for timing).
    func verify(_ password: String, hash: String) async -> Bool {
        let bcryptSeesAll = password.utf8.count <= 72 && !password.utf8.contains(0)
        let matches = await Self.offloaded { Bcrypt.verify(password, hash: hash) }
        return bcryptSeesAll && matches
    }

    /// Verifies against a fixed hash so that an unknown email costs as much as a wrong password.
    func verifyAgainstDummy(_ password: String) async {
        let dummy = await hashOnce("edugo-dummy-password-for-timing")
        _ = await verify(password, hash: dummy)
    }

    /// Hashes a well-known password once per process (seed accounts share their role's password).
    func hashOnce(_ password: String) async -> String {
        if let known = await memo.value(for: password) { return known }
        let hashed = await hash(password)
        await memo.store(hashed, for: password)
        return hashed
    }

    private static func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: work())
            }
        }
    }
}

/// Seed-password hashes computed once per process.
private actor MemoizedHashes {
    private var hashes: [String: String] = [:]

    func value(for password: String) -> String? { hashes[password] }

    func store(_ hash: String, for password: String) { hashes[password] = hash }
}
