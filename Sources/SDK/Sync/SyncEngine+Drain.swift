import Foundation

/// Draining the outbox: when, and one drain's work.
extension SyncEngine {
    /// Tells the engine a write was enqueued, so it drains when online.
    public nonisolated func writeEnqueued() {
        kicks.update { $0 += 1 }
    }

    func retryLoop() async {
        while !Task.isCancelled {
            let next = try? await store.nextRetryDate()
            let wait: TimeInterval = next.flatMap { $0 }.map { max(0.05, $0.timeIntervalSince(environment.now())) } ?? 30
            do {
                try await environment.sleep(.milliseconds(Int(min(wait, 30) * 1000)))
            } catch {
                return
            }
            if monitor.isConnected, (try? await hasDueItems()) == true { _ = await drain() }
        }
    }

    func hasDueItems() async throws -> Bool {
        try await !store.dueQueues(now: environment.now()).isEmpty
    }

    /// Drains in the caller's task (so cancelling the task — ``run()``'s, when the drain is one of
    /// its children — stops the drain after the request in flight), or, while another caller's
    /// drain is under way, waits for that drain's report.
    func drain(ignoringRetryDelays: Bool = false) async -> SyncReport {
        if draining {
            return await withCheckedContinuation { joiners.append($0) }
        }
        draining = true
        let report = await performDrain(ignoringRetryDelays: ignoringRetryDelays)
        draining = false
        let waiting = joiners
        joiners = []
        for joiner in waiting { joiner.resume(returning: report) }
        return report
    }

    func performDrain(ignoringRetryDelays: Bool) async -> SyncReport {
        statusBroadcaster.update { $0.isSyncing = true }
        // A write based on a version is only meaningful on the history that version belongs to.
        // Without the live stream (which says `reset` when the server's data is replaced) one
        // feed request from the stored cursor finds out first; only on `timeline_changed` does a
        // pull follow before the drain (a reset that reconciles the outbox), so no write is sent
        // on top of a state its user never saw. Otherwise the drain goes first, as always: its
        // conflicts are settled by their rules, not by a pull rebasing them. (A store that never
        // pulled has no timeline to be wrong about.)
        if !isLiveStreamHeld, (try? await store.hasPendingVersionedWrites()) == true {
            let probe = Puller(client: client, store: store, now: environment.now, pageSize: 1)
            if await probe.timelineChanged() { _ = await pull() }
        }
        var machine = DrainStateMachine()
        var leased = false
        while !Task.isCancelled {
            let now = ignoringRetryDelays ? Date.distantFuture : environment.now()
            // Items of one resource go in order; different resources go side by side.
            let due: [(resource: ResourceKey, items: [OutboxItem])]
            do {
                due = try await store.dueQueues(now: now, excluding: machine.waiting)
            } catch {
                // The outbox could not be listed: say so, never report a sync that did not happen.
                machine.storeFailed()
                break
            }
            guard !due.isEmpty else {
                machine.nothingDue()
                break
            }
            machine.roundStarted()
            let processor = OutboxProcessor(
                client: client, store: store, cache: cache, policy: policy, environment: environment, staleAfter: staleAfter,
                drainer: drainerID, resendsExhausted: machine.resendsExhausted)
            // One drainer per store, across processes: every claim takes or renews the lease in
            // its own step, and a drain whose lease another drainer holds halts (`busy`).
            leased = true
            // Up to `parallelResources` queues at a time, the next one starting as soon as one
            // finishes. After a halt or a cancellation no queue starts, and those already in
            // flight finish their request and are counted.
            let halted = await withTaskGroup(of: (resource: ResourceKey, items: [OutboxItem], outcomes: [OutboxProcessor.Outcome]).self) { group -> Bool in
                var queues = due.makeIterator()
                var stopping = false
                var inFlight = 0
                while true {
                    while !stopping, inFlight < parallelResources, let queue = queues.next() {
                        if Task.isCancelled {
                            machine.cancelled()
                            stopping = true
                            break
                        }
                        group.addTask { (queue.resource, queue.items, await processor.process(queue.items)) }
                        inFlight += 1
                    }
                    guard let finished = await group.next() else { return stopping }
                    inFlight -= 1
                    if machine.queueFinished(finished.resource, items: finished.items, outcomes: finished.outcomes) == .stop {
                        stopping = true
                    }
                }
            }
            if halted { break }
            if machine.roundFinished() == .stop { break }
        }
        if leased { try? store.releaseDrainLease(owner: drainerID) }
        var report = machine.report
        report.remaining = (try? store.pendingCountNow()) ?? 0
        let finishedAt = environment.now()
        // The session's end is the session events' to tell (``followSession``: set when a request
        // finds it, cleared by a sign-in): a drain that met another error (a timeout on a request
        // sent before the end was found) or none (nothing to send) leaves it as it is.
        let error: SyncError? = statusBroadcaster.update { status -> SyncError? in
            status.isSyncing = false
            status.error = status.error == .signedOut ? .signedOut : machine.lastError
            status.lastError = status.error?.description
            return status.error
        } ?? nil
        // The store keeps the last sync time; the status is read from it.
        if error == nil {
            try? await Preferences(store: store).set(lastSyncDate: finishedAt)
        }
        await refreshStatus()
        return report
    }
}
