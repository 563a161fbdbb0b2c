import Crypto
import Foundation
import Hummingbird
import GRDB

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
        let userID = identity.userID
        let current = now()
        let expiry = current.addingTimeInterval(-retention.timeInterval)
        let abandoned = current.addingTimeInterval(-abandonedAfter)
        let writer = identity.tenant.writer

        let stored = try await writer.write { db -> EncodedResponse? in
            try db.execute(sql: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [expiry])
            if let row = try Row.fetchOne(
                db, sql: "SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?",
                arguments: [userID, key])
            {
                let storedFingerprint: String = row["fingerprint"]
                guard storedFingerprint == fingerprint else {
                    throw APIError(
                        .unprocessableContent, code: "idempotency_key_reused",
                        detail: "This Idempotency-Key was used with a different request.")
                }
                if let status: Int = row["status"] {
                    let headerJSON: String = row["headers"] ?? "{}"
                    let headers = (try? JSONDecoder().decode([String: String].self, from: Data(headerJSON.utf8))) ?? [:]
                    return EncodedResponse(status: .init(code: status), headers: headers, body: row["body"] ?? Data())
                }
                let createdAt: Date = row["created_at"]
                guard createdAt < abandoned else {
                    throw APIError(
                        .conflict, code: "idempotency_in_progress",
                        detail: "A request with this Idempotency-Key is still being processed.")
                }
                try db.execute(
                    sql: "UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?",
                    arguments: [current, userID, key])
                return nil
            }
            try db.execute(
                sql: "INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                arguments: [userID, key, fingerprint, current])
            return nil
        }
        if let stored { return stored.response(replayed: true) }

        let result: EncodedResponse
        do {
            result = try await operation()
        } catch {
            try? await writer.write { db in
                try db.execute(
                    sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL",
                    arguments: [userID, key])
            }
            throw error
        }
        let headerJSON = String(decoding: try JSONEncoder().encode(result.headers), as: UTF8.self)
        try await writer.write { db in
            if (200..<300).contains(result.status.code) {
                try db.execute(
                    sql: "UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE user_id = ? AND key = ?",
                    arguments: [result.status.code, headerJSON, result.body, userID, key])
            } else {
                try db.execute(
                    sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?", arguments: [userID, key])
            }
        }
        return result.response()
    }

    /// Method, path and the body's canonical JSON (member order does not matter).
    static func fingerprint(method: String, path: String, body: Data) -> String {
        let canonical: Data
        if !body.isEmpty, let value = try? JSONDecoder().decode(JSONValue.self, from: body),
            let encoded = try? APICoding.encoder.encode(value)
        {
            canonical = encoded
        } else {
            canonical = body
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(method) \(path)\n".utf8))
        hasher.update(data: canonical)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
