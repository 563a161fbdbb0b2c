import Foundation
import GRDB

/// What claiming an `Idempotency-Key` found (``TenantStore/claimIdempotencyKey(_:)``).
package enum IdempotencyClaim: Sendable {
    /// The key is this request's now: run it.
    case claimed
    /// A request with the key succeeded before: replay its answer.
    case answered(StoredAnswer)
}

/// One claim of an `Idempotency-Key`.
package struct IdempotencyKeyClaim: Sendable {
    package var userID: String
    package var key: String
    package var fingerprint: String
    package var now: Date
    /// Stored answers older than this are forgotten.
    package var expiredBefore: Date
    /// A claim older than this with no stored answer belongs to a crashed request and is taken over.
    package var abandonedBefore: Date

    package init(userID: String, key: String, fingerprint: String, now: Date, expiredBefore: Date, abandonedBefore: Date) {
        self.userID = userID
        self.key = key
        self.fingerprint = fingerprint
        self.now = now
        self.expiredBefore = expiredBefore
        self.abandonedBefore = abandonedBefore
    }
}

extension TenantStore {
    /// Claims a key for a request, in one transaction: forgets expired keys, then either replays a
    /// stored answer, refuses (``StoreError/idempotencyKeyReused`` for another request's key,
    /// ``StoreError/idempotencyInProgress`` while the first request runs), takes over an abandoned claim,
    /// or claims the key.
    package func claimIdempotencyKey(_ claim: IdempotencyKeyClaim) async throws -> IdempotencyClaim {
        try await database.writer.write { db -> IdempotencyClaim in
            try db.execute(sql: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [claim.expiredBefore])
            guard let row = try Row.fetchOne(
                db,
                sql: "SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?",
                arguments: [claim.userID, claim.key])
            else {
                try db.execute(
                    sql: "INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                    arguments: [claim.userID, claim.key, claim.fingerprint, claim.now])
                return .claimed
            }
            let storedFingerprint: String = row["fingerprint"]
            guard storedFingerprint == claim.fingerprint else {
                throw StoreError.idempotencyKeyReused
            }
            if let status: Int = row["status"] {
                let headerJSON: String = row["headers"] ?? "{}"
                let headers = (try? JSONDecoder().decode([String: String].self, from: Data(headerJSON.utf8))) ?? [:]
                return .answered(StoredAnswer(status: status, headers: headers, body: row["body"] ?? Data()))
            }
            let createdAt: Date = row["created_at"]
            guard createdAt < claim.abandonedBefore else {
                throw StoreError.idempotencyInProgress
            }
            try db.execute(
                sql: "UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?",
                arguments: [claim.now, claim.userID, claim.key])
            return .claimed
        }
    }

    /// Settles a claimed key: a successful (2xx) answer is stored for replay; any other answer
    /// releases the key, so the client may retry.
    package func settleIdempotencyKey(userID: String, key: String, answer: StoredAnswer) async throws {
        let headerJSON = String(decoding: try JSONEncoder().encode(answer.headers), as: UTF8.self)
        try await database.writer.write { db in
            if (200..<300).contains(answer.status) {
                try db.execute(
                    sql: "UPDATE idempotency_keys SET status = ?, headers = ?, body = ? WHERE user_id = ? AND key = ?",
                    arguments: [answer.status, headerJSON, answer.body, userID, key])
            } else {
                try db.execute(
                    sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?", arguments: [userID, key])
            }
        }
    }

    /// Releases a claim whose request failed (its answer was never stored).
    package func releaseIdempotencyKey(userID: String, key: String) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL",
                arguments: [userID, key])
        }
    }
}
