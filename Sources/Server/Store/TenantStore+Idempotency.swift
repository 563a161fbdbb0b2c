import Foundation
import GRDB

/// An answer stored under an `Idempotency-Key`, with the fingerprint of the request it answered.
struct StoredIdempotentAnswer: Sendable {
    var fingerprint: String
    var answer: EncodedResponse
}

extension TenantStore {
    /// The answer stored under `key` for `userID`, unless it was stored before `expiredBefore`
    /// (a forgotten key). A row without an answer (a claim written by an earlier version of the
    /// server, which kept claims in the database) is no answer.
    func storedIdempotentAnswer(userID: String, key: String, expiredBefore: Date) async throws -> StoredIdempotentAnswer? {
        try await database.writer.read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT fingerprint, status, headers, body FROM idempotency_keys
                    WHERE user_id = ? AND key = ? AND status IS NOT NULL AND created_at >= ?
                    """,
                arguments: [userID, key, expiredBefore]),
                let status: Int = row["status"]
            else { return nil }
            let headerJSON: String = row["headers"] ?? "{}"
            let headers = (try? JSONDecoder().decode([String: String].self, from: Data(headerJSON.utf8))) ?? [:]
            return StoredIdempotentAnswer(
                fingerprint: row["fingerprint"],
                answer: EncodedResponse(status: .init(code: status), headers: headers, body: row["body"] ?? Data()))
        }
    }

    /// Stores a successful answer under `key` for replay, in one transaction that also forgets
    /// the keys stored before `expiredBefore`.
    func storeIdempotentAnswer(
        userID: String, key: String, fingerprint: String, answer: EncodedResponse, at now: Date, expiredBefore: Date
    ) async throws {
        let headerJSON = String(decoding: try JSONEncoder().encode(answer.headers), as: UTF8.self)
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM idempotency_keys WHERE created_at < ?", arguments: [expiredBefore])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO idempotency_keys (user_id, key, fingerprint, status, headers, body, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [userID, key, fingerprint, answer.status.code, headerJSON, answer.body, now])
        }
    }
}
