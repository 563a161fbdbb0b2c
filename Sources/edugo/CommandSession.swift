import EduGoSDK
import Foundation

/// The signed-in user's session as a ``SessionCommand`` runs in it: the SDK's session (whose
/// repositories and engine read through, as `session.courses`), the client it belongs to, the
/// command's options, and why the data the command reads may be stale.
@dynamicMemberLookup
struct CommandSession {
    /// The SDK's front door the session belongs to (downloads, direct API calls).
    let client: EduGoClient
    /// The SDK's offline session of the signed-in user.
    let sdk: OfflineSession
    /// The options the command was given.
    let options: GlobalOptions
    /// Why the local store may miss the server's latest for the command's reads: `nil` when every
    /// one was refreshed, or when the command reads nothing.
    var stale: StaleReason?

    /// The SDK session's members (`courses`, `engine`, `store`…), read through.
    subscript<Value>(dynamicMember keyPath: KeyPath<OfflineSession, Value>) -> Value {
        sdk[keyPath: keyPath]
    }

    /// Fetches `jobs` for a read unless `--offline`, within `--timeout`.
    ///
    /// - Returns: why the local store's data may be stale (`nil` when every job was refreshed): the
    ///   read then answers from the store and says why.
    /// - Throws: answers that keep their meaning (401, 403, 404…).
    func refresh(_ jobs: [RefreshJob]) async throws -> StaleReason? {
        guard !options.offline else { return .offline }
        for job in jobs {
            if let reason = try await sdk.engine.refresh(job) { return reason }
        }
        return nil
    }

    /// After a write: syncs it unless `--offline`, and says whether it reached the server.
    ///
    /// - Throws: ``CLIError/conflict(_:)`` (exit 4) when a conflict waits for the user.
    func reportWrite() async throws {
        var synced = false
        if !options.offline {
            let report = await sdk.engine.syncNow()
            synced = report.remaining == 0
        }
        let status = sdk.engine.status
        if options.json {
            Output.json(["queued": !synced, "pending": status.pendingCount, "dead_letters": status.deadLetterCount, "conflicts": status.conflictCount])
        } else {
            Output.line(synced ? "Saved." : "Saved locally; queued for sync (\(status.pendingCount) pending).")
        }
        if status.conflictCount > 0 { throw CLIError.conflict("a conflict needs attention: run `edugo conflicts list`") }
    }
}
