import Foundation
import GRDB

/// Sends outbox items of one resource, in order, and settles each by the server's answer.
struct OutboxProcessor: Sendable {
    enum Outcome: Sendable, Equatable {
        case sent, deadLettered, parked, resend
        /// The item left the outbox before it was sent (a create cancelled by a delete).
        case gone
        /// Stop this resource for now (retry later).
        case retryLater(String)
        /// Stop everything (offline or signed out).
        case halt(String)
    }

    let client: APIClient
    let store: OfflineStore
    let cache: ResponseCache
    let policy: ConflictPolicy
    let environment: SDKEnvironment
    let staleAfter: TimeInterval

    func process(_ items: [OutboxItem]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for item in items {
            let outcome = await process(item)
            outcomes.append(outcome)
            switch outcome {
            case .sent, .deadLettered, .parked, .gone: continue
            case .resend, .retryLater, .halt: return outcomes
            }
        }
        return outcomes
    }

    func process(_ listed: OutboxItem) async -> Outcome {
        // Work on the item as it is now, not as the drain listed it: since then an earlier item
        // of the resource may have rebased it, or a later write may have coalesced into it.
        // Counting the attempt in the same transaction means every write from here on is
        // appended instead of rewriting what is being sent.
        let claimed: OutboxItem?
        do {
            claimed = try await store.writer.write { db -> OutboxItem? in
                guard let id = listed.id, let current = try OutboxItem.fetchOne(db, key: id) else { return nil }
                try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", arguments: [id])
                return current
            }
        } catch {
            return .retryLater("store")
        }
        guard let item = claimed else { return .gone }
        let now = environment.now()
        if now.timeIntervalSince(item.createdAt) > staleAfter {
            return (try? await deadLetter(item, reason: "stale", status: nil, problem: nil)) ?? .retryLater("store")
        }
        guard let endpoint = Endpoint(method: item.method, encodedPath: item.path) else {
            return (try? await deadLetter(item, reason: "invalid_path", status: nil, problem: nil)) ?? .retryLater("store")
        }
        var body = item.body
        if let version = item.baseVersion, item.operation != .delete {
            body = JSONObject.merge(body, JSONObject.encode(["version": version]))
        }
        let response: APIResponse
        do {
            // Sent only with the store's user's token: never another account's write.
            response = try await client.send(
                endpoint: endpoint, body: body, headers: ["Idempotency-Key": item.idempotencyKey], limits: nil, asUser: store.userID)
        } catch let error as NetworkError {
            switch error {
            case .sessionExpired, .unauthorized:
                return .halt("signed out")
            case .noConnection, .timeout:
                await scheduleRetry(item, after: nil, error: "\(error)")
                return .halt("offline")
            case .pinningFailed(let host), .untrustedCertificate(let host):
                // Not offline and not the write's fault: keep it (never dead-lettered), report
                // why, and stop the drain, since every other write would meet the same server.
                await scheduleRetry(item, after: nil, error: "\(error)")
                return .halt(error == .pinningFailed(host: host) ? "pinning_failed: \(host)" : "untrusted_certificate: \(host)")
            default:
                await scheduleRetry(item, after: nil, error: "\(error)")
                return .retryLater("\(error)")
            }
        } catch {
            await scheduleRetry(item, after: nil, error: "cancelled")
            return .halt("cancelled")
        }
        return await settle(item, response: response)
    }

    private func settle(_ item: OutboxItem, response: APIResponse) async -> Outcome {
        let now = environment.now()
        let problem = ProblemDetails.decode(response.body)
        switch response.statusCode {
        case 200..<300:
            do {
                try await store.writer.write { db in
                    try LocalCache.apply(db, resource: item.resource, operation: item.operation, json: response.body, at: now)
                    _ = try OutboxItem.deleteOne(db, key: item.id)
                    // Later writes to the resource were made on top of this one: rebase them on
                    // the version it produced, or they would conflict with their own past.
                    if let version = (JSONObject.decode(response.body)?["version"] as? NSNumber)?.intValue {
                        try db.execute(
                            sql: "UPDATE outbox SET base_version = ?, base_json = ? WHERE resource = ? AND id > ?",
                            arguments: [version, response.body, item.resource, item.id])
                    }
                }
                await cache.invalidate(afterMutationOf: item.path)
                return .sent
            } catch {
                return .retryLater("store")
            }
        case 409 where problem?.code == "version_conflict", 412 where problem?.code == "version_conflict":
            return await resolveConflict(item, serverVersion: problem?.currentVersion, serverJson: problem?.current)
        case 428 where item.resource.hasPrefix("progress/"):
            // A first write met progress another device recorded: fetch it and merge.
            guard let (version, json) = await currentProgress(for: item) else { return .retryLater("progress unavailable") }
            return await resolveConflict(item, serverVersion: version, serverJson: json)
        case 401:
            return .halt("signed out")
        case 409 where problem?.code == "idempotency_in_progress":
            // The same key is still being applied (an earlier attempt whose answer never came):
            // not a refusal. Ask again later; the replay will carry that attempt's result.
            let retryAfter = RetryAfter.parse(response.header("Retry-After"), now: now)
            await scheduleRetry(item, after: retryAfter, error: "HTTP 409 idempotency_in_progress")
            return .retryLater("idempotency_in_progress")
        case 408, 429, 500...599:
            let retryAfter = RetryAfter.parse(response.header("Retry-After"), now: now)
            await scheduleRetry(item, after: retryAfter, error: "HTTP \(response.statusCode)")
            return .retryLater("HTTP \(response.statusCode)")
        default:
            return (try? await deadLetter(item, reason: problem?.code ?? "http_\(response.statusCode)", status: response.statusCode, problem: response.body))
                ?? .retryLater("store")
        }
    }

    private func resolveConflict(_ item: OutboxItem, serverVersion: Int?, serverJson: Data?) async -> Outcome {
        let now = environment.now()
        let strategy = policy.strategy(for: item.resource)
        let resolution = ConflictResolver.resolve(
            strategy: strategy, resource: item.resource, base: item.baseJson, local: item.body, server: serverJson,
            serverVersion: serverVersion ?? 0)
        do {
            return try await store.writer.write { db -> Outcome in
                switch resolution {
                case .acceptServer:
                    try LocalCache.apply(db, resource: item.resource, operation: .update, json: serverJson, at: now)
                    _ = try OutboxItem.deleteOne(db, key: item.id)
                    return .sent
                case .resend(let body, let version):
                    // The failed attempt stored nothing under the key, so the key is reused.
                    try db.execute(
                        sql: "UPDATE outbox SET body = ?, base_version = ?, base_json = ?, next_attempt_at = NULL WHERE id = ?",
                        arguments: [body, version, serverJson, item.id])
                    return .resend
                case .park:
                    try item.conflict(serverVersion: serverVersion, serverJson: serverJson, at: now).insert(db)
                    _ = try OutboxItem.deleteOne(db, key: item.id)
                    return .parked
                }
            }
        } catch {
            return .retryLater("store")
        }
    }

    private func currentProgress(for item: OutboxItem) async -> (Int, Data)? {
        let parts = item.resource.split(separator: "/").map(String.init)
        guard parts.count == 3,
            let progress: CourseProgress = try? await client.executeWithMetadata(
                endpoint: .Courses.progress(parts[1]), limits: nil, asUser: store.userID).value,
            let lesson = progress.lessons.first(where: { $0.lessonId == parts[2] }),
            let json = try? JSONCoding.encoder.encode(lesson)
        else { return nil }
        return (lesson.version, json)
    }

    private func deadLetter(_ item: OutboxItem, reason: String, status: Int?, problem: Data?) async throws -> Outcome {
        let now = environment.now()
        try await store.writer.write { db in
            try item.deadLetter(reason: reason, status: status, problem: problem, at: now).insert(db)
            _ = try OutboxItem.deleteOne(db, key: item.id)
        }
        return .deadLettered
    }

    private func scheduleRetry(_ item: OutboxItem, after retryAfter: Duration?, error: String) async {
        let now = environment.now()
        let attempts = max(1, item.attempts + 1)
        let backoff = min(300, pow(2, Double(min(attempts, 9))))
        let delay = retryAfter.map { Double($0.components.seconds) } ?? backoff
        try? await store.writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [now.addingTimeInterval(delay), error, item.id])
        }
    }
}
