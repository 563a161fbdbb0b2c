import Crypto
import Foundation
import Hummingbird

/// `Idempotency-Key` handling for POST, PUT and PATCH, scoped by tenant (database) and user.
///
/// The first request with a key claims it (in memory, ``InFlightIdempotencyKeys``); a successful
/// (2xx) answer is stored and replayed for 24 h to the same key with the same method, path and
/// body. A failed attempt stores nothing, so a client may retry it (for example with a re-based
/// version after a conflict). A keyed request costs one write transaction more than an unkeyed
/// one: the stored answer.
struct IdempotencyCoordinator: Sendable {
    let retention: Duration
    /// A claim older than this with no stored answer belongs to a stuck request and is taken over.
    let abandonedAfter: TimeInterval = 60
    let now: @Sendable () -> Date
    /// The keys whose requests are running (shared by every copy of the coordinator).
    let inFlight = InFlightIdempotencyKeys()

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
        let store = identity.store
        let userID = identity.userID
        let current = now()
        let expiredBefore = current.addingTimeInterval(-retention.timeInterval)
        let slot = InFlightIdempotencyKeys.Slot(tenant: identity.tenantID.rawValue, user: userID, key: key)
        let token: UInt64
        switch inFlight.claim(slot, fingerprint: fingerprint, now: current, abandonedBefore: current.addingTimeInterval(-abandonedAfter)) {
        case .claimed(let claimed): token = claimed
        case .inProgress: throw Self.inProgress
        case .reused: throw Self.reused
        }
        // Released only after the answer is stored: a request that claims the key next finds it.
        defer { inFlight.release(slot, token: token) }
        if let stored = try await store.storedIdempotentAnswer(userID: userID, key: key, expiredBefore: expiredBefore) {
            guard stored.fingerprint == fingerprint else { throw Self.reused }
            return stored.answer.response(replayed: true)
        }
        let result = try await operation()
        if (200..<300).contains(result.status.code) {
            try await store.storeIdempotentAnswer(
                userID: userID, key: key, fingerprint: fingerprint, answer: result, at: current, expiredBefore: expiredBefore)
        }
        return result.response()
    }

    private static let reused = APIError(
        .unprocessableContent, code: "idempotency_key_reused", detail: "This Idempotency-Key was used with a different request.")
    private static let inProgress = APIError(
        .conflict, code: "idempotency_in_progress", detail: "A request with this Idempotency-Key is still being processed.")

    /// Method, path and the body's canonical JSON (member order does not matter).
    static func fingerprint(method: String, path: String, body: Data) -> String {
        let canonical: Data
        if !body.isEmpty, let value = try? JSONDecoder().decode(JSONValue.self, from: body),
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
