import Crypto
import EduGoServerStore
import Foundation
import Hummingbird

/// `Idempotency-Key` handling for POST, PUT and PATCH, scoped by tenant (database) and user.
///
/// The first request with a key claims it; a successful (2xx) answer is stored and replayed for
/// 24 h to the same key with the same method, path and body. A failed attempt releases the key,
/// so a client may retry it (for example with a re-based version after a conflict).
struct IdempotencyCoordinator: Sendable {
    let retention: Duration
    /// A claim older than this with no stored answer belongs to a crashed request and is taken over.
    let abandonedAfter: TimeInterval = 60
    let now: @Sendable () -> Date
    /// Counts each replayed answer.
    var metrics: ServerMetrics? = nil

    func perform(
        key: String?, identity: Identity, method: String, path: String, body: Data,
        operation: () async throws -> EncodedResponse
    ) async throws -> Response {
        guard let key else { return try await operation().response() }
        guard (1...255).contains(key.count), key.allSatisfy({ $0.isASCII && !$0.isNewline }) else {
            throw APIError.validation(
                field: "Idempotency-Key", code: "invalid_format", message: "must be 1 to 255 visible ASCII characters")
        }
        let fingerprint = Self.fingerprint(method: method, path: path, body: body)
        // Claim, operation and answer see the same data: a snapshot restore waits for them (one
        // landing between them would let a retry run the write again in the restored data).
        return try await identity.store.database.replacements.whileInPlace {
            try await perform(key: key, fingerprint: fingerprint, identity: identity, operation: operation)
        }
    }

    private func perform(
        key: String, fingerprint: String, identity: Identity, operation: () async throws -> EncodedResponse
    ) async throws -> Response {
        let store = identity.store
        let userID = identity.userID
        let current = now()
        let claim = try await store.claimIdempotencyKey(
            IdempotencyKeyClaim(
                userID: userID, key: key, fingerprint: fingerprint, now: current,
                expiredBefore: current.addingTimeInterval(-retention.timeInterval),
                abandonedBefore: current.addingTimeInterval(-abandonedAfter)))
        if case .answered(let stored) = claim {
            metrics?.recordIdempotentReplay()
            return EncodedResponse(stored).response(replayed: true)
        }

        let result: EncodedResponse
        do {
            result = try await operation()
        } catch {
            try? await store.releaseIdempotencyKey(userID: userID, key: key)
            throw error
        }
        try await store.settleIdempotencyKey(userID: userID, key: key, answer: result.stored)
        return result.response()
    }

    /// Method, path and the body's canonical JSON (member order does not matter).
    static func fingerprint(method: String, path: String, body: Data) -> String {
        let canonical: Data
        if !body.isEmpty, let value = try? JSONParser.parse(body, limits: .requestBody),
            let encoded = try? APICoding.canonicalEncoder.encode(value)
        {
            canonical = encoded
        } else {
            canonical = body
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(method) \(path)\n".utf8))
        hasher.update(data: canonical)
        return hasher.finalize().hexDigits
    }
}
