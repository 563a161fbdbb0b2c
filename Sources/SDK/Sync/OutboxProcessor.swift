import Foundation

/// Sends outbox items of one resource, in order, and settles each by the server's answer
/// (decided by ``OutboxDecision``, applied here).
struct OutboxProcessor: Sendable {
    enum Outcome: Sendable, Equatable {
        case sent, deadLettered, parked, resend
        /// The item left the outbox before it was sent (a create cancelled by a delete).
        case gone
        /// The item waits for a queued write it depends on (``WriteDependency``).
        case waitsForPrerequisite
        /// Stop this resource for now (retry later).
        case retryLater(SyncError)
        /// Stop everything (offline or signed out).
        case halt(SyncError)
    }

    let client: APIClient
    let store: OfflineStore
    let cache: ResponseCache
    let policy: ConflictPolicy
    let environment: SDKEnvironment
    let staleAfter: TimeInterval
    /// The drainer's name on the store's drain lease: every claim renews it, or fails when
    /// another drainer took it.
    let drainer: String
    /// Items this drain already resent ``OutboxDecision/conflictResendLimit`` times after a
    /// conflict: another conflict parks them for the user.
    var resendsExhausted: Set<Int64> = []

    func process(_ items: [OutboxItem]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for item in items {
            // Cancelled (the engine's run() ended): leave the rest unclaimed, as it was.
            guard !Task.isCancelled else {
                outcomes.append(.halt(.cancelled))
                return outcomes
            }
            let outcome = await process(item)
            outcomes.append(outcome)
            switch outcome {
            case .sent, .deadLettered, .parked, .gone: continue
            case .resend, .waitsForPrerequisite, .retryLater, .halt: return outcomes
            }
        }
        return outcomes
    }

    func process(_ listed: OutboxItem) async -> Outcome {
        // Work on the item as it is now, not as the drain listed it: since then an earlier item
        // of the resource may have rebased it, or a later write may have coalesced into it.
        // Counting the attempt in the same transaction means every write from here on is
        // appended instead of rewriting what is being sent.
        let now = environment.now()
        let item: OutboxItem
        do {
            switch try await store.claim(listed.id, owner: drainer, now: now, leaseUntil: now.addingTimeInterval(SyncEngine.drainLease)) {
            case .claimed(let claimed): item = claimed
            case .gone: return .gone
            case .leaseLost: return .halt(.busy)
            }
        } catch {
            return .retryLater(.store)
        }
        let attempt = item.attempts + 1
        if now.timeIntervalSince(item.createdAt) > staleAfter {
            return await apply(.deadLetter(reason: "stale", unlessQueued: nil), to: item, response: nil)
        }
        guard let endpoint = Endpoint(method: item.method, encodedPath: item.path) else {
            return await apply(.deadLetter(reason: "invalid_path", unlessQueued: nil), to: item, response: nil)
        }
        var body = item.body
        if let version = item.baseVersion, item.operation != .delete {
            body = JSONObject.merge(body, JSONObject.encode(["version": version]))
        }
        let response: APIResponse
        do {
            // Sent only with the store's user's token: never another account's write.
            response = try await client.send(
                endpoint: endpoint, body: body, headers: ["Idempotency-Key": item.idempotencyKey], limits: .outboxSend,
                asUser: store.userID)
        } catch let error as NetworkError {
            return await apply(
                OutboxDecision.decide(error: error, attempt: attempt, jitter: environment.jitter()), to: item, response: nil,
                detail: "\(error)")
        } catch {
            return await apply(.halt(.cancelled, retryAfter: OutboxDecision.backoff.delay(forRetry: attempt)), to: item, response: nil)
        }
        // A success has no problem to read; a refusal's is decoded once, for the decision and its carrying out.
        let problem = response.isSuccess ? nil : ProblemDetails.decode(response.body)
        let decision = OutboxDecision.decide(
            status: response.statusCode, problem: problem,
            retryAfter: RetryAfter.parse(response.header("Retry-After"), now: now), resource: item.resource, attempt: attempt,
            jitter: environment.jitter())
        return await apply(decision, to: item, response: response, problem: problem)
    }

    /// Carries out `decision` on `item`, given the answer and its `problem`; `detail` is kept on the
    /// item as its last error when it is rescheduled.
    private func apply(
        _ decision: OutboxDecision, to item: OutboxItem, response: APIResponse?, problem: ProblemDetails? = nil,
        detail: String? = nil
    ) async -> Outcome {
        let now = environment.now()
        switch decision {
        case .settle:
            guard let response else { return .retryLater(.store) }
            return await settle(item, response: response, at: now)
        case .resolveConflict:
            return await resolveConflict(item, serverVersion: problem?.currentVersion, serverJson: problem?.current)
        case .fetchAndMerge:
            // A first write met a record another device made (progress): fetch it and merge.
            guard let (version, json) = await item.resource.descriptor?.current(of: item.resource, client: client, userID: store.userID)
            else {
                await scheduleRetry(item, after: OutboxDecision.backoff.delay(forRetry: item.attempts + 1), error: "progress unavailable")
                return .retryLater(.progressUnavailable)
            }
            return await resolveConflict(item, serverVersion: version, serverJson: json)
        case .halt(let reason, let retryAfter):
            if let retryAfter { await scheduleRetry(item, after: retryAfter, error: detail ?? reason.description) }
            return .halt(reason)
        case .retryLater(let reason, let delay):
            await scheduleRetry(item, after: delay, error: detail ?? reason.description)
            return .retryLater(reason)
        case .deadLetter(let reason, let prerequisite):
            do {
                let settled = try await store.settle(
                    item,
                    .deadLetter(reason: reason, status: response?.statusCode, problem: response?.body, unlessCreationQueuedFor: prerequisite),
                    at: now)
                switch settled {
                case .deadLetter: return .deadLettered
                case nil: return .gone
                case .queued, .inFlight, .conflict: return .waitsForPrerequisite
                }
            } catch {
                return .retryLater(.store)
            }
        }
    }

    private func settle(_ item: OutboxItem, response: APIResponse, at now: Date) async -> Outcome {
        let stale = cache.keyPrefixes(afterMutationOf: item.path)
        do {
            // Settled even when the drain was cancelled while this request was on the wire, so
            // the write is not sent again.
            let rule = policy.strategy(for: item.resource) == .merge ? item.resource.descriptor?.conflicts : nil
            try await store.settle(item, .delivered(answer: response.body, droppingResponses: stale, raising: rule), at: now)
            cache.forgetInMemory(keyPrefixes: stale)
            return .sent
        } catch {
            return .retryLater(.store)
        }
    }

    private func resolveConflict(_ item: OutboxItem, serverVersion: Int?, serverJson: Data?) async -> Outcome {
        let now = environment.now()
        let strategy = policy.strategy(for: item.resource)
        let proposed = ConflictResolver.resolve(
            strategy: strategy, resource: item.resource, base: item.baseJson, local: item.body, server: serverJson,
            serverVersion: serverVersion ?? 0)
        let resolution: ConflictResolver.Resolution
        if case .resend = proposed, serverVersion == nil || resendsExhausted.contains(item.id) {
            // Without the server's version there is nothing to send on top of; and a write that
            // met a newer version again and again is for the user to settle. Park it, never loop.
            resolution = .park
        } else {
            resolution = proposed
        }
        do {
            switch resolution {
            case .acceptServer:
                try await store.settle(item, .acceptServer(json: serverJson), at: now)
                return .sent
            case .resend(let body, let version):
                try await store.settle(item, .resend(body: body, version: version, serverJson: serverJson), at: now)
                return .resend
            case .park:
                try await store.settle(item, .conflict(serverVersion: serverVersion, serverJson: serverJson), at: now)
                return .parked
            }
        } catch {
            return .retryLater(.store)
        }
    }

    private func scheduleRetry(_ item: OutboxItem, after delay: Duration, error: String) async {
        _ = try? await store.settle(item, .retry(at: environment.now().addingTimeInterval(delay.timeInterval), error: error), at: environment.now())
    }
}
