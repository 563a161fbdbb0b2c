import ArgumentParser
import EduGoSDK
import Foundation

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync state and syncing.", subcommands: [Status.self, Now.self, Watch.self])

    struct Status: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "What is waiting to sync.")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            await session.engine.refreshStatus()
            let status = session.engine.status
            let lastSync = try await session.preferences.current().lastSyncDate
            if global.json {
                Output.json([
                    "pending": status.pendingCount,
                    "oldest_pending_age_seconds": status.oldestPendingAge.map { Int($0) } as Any? ?? NSNull(),
                    "dead_letters": status.deadLetterCount, "conflicts": status.conflictCount,
                    "last_sync_at": Output.iso(lastSync),
                ])
                return
            }
            Output.line("pending: \(status.pendingCount)"
                + (status.oldestPendingAge.map { " (oldest \(Int($0)) s)" } ?? ""))
            Output.line("dead letters: \(status.deadLetterCount)")
            Output.line("conflicts: \(status.conflictCount)")
            Output.line("last sync: \(lastSync.map { ISO8601DateFormatter().string(from: $0) } ?? "never")")
        }
    }

    struct Now: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "now", abstract: "Send everything waiting, then pull what changed on the server.")
        @OptionGroup var global: GlobalOptions

        func preflight() throws {
            try global.requireServer(for: "sync")
        }

        func run(in session: CommandSession) async throws {
            let before = try await session.engine.outbox.pending().count
            let showProgress = Output.isTerminal() && !global.json
            if showProgress { FileHandle.standardError.write(Data("syncing \(before) change(s)…\r".utf8)) }
            let report = await session.engine.syncNow()
            if showProgress { FileHandle.standardError.write(Data("\u{1B}[2K".utf8)) }
            let status = session.engine.status
            if global.json {
                Output.json([
                    "sent": report.sent, "dead_lettered": report.deadLettered, "conflicts": report.conflictsParked,
                    "remaining": report.remaining, "pulled": report.pulled, "applied": report.applied,
                    "base_sync": report.baseSync, "pull_error": report.pullError.map(\.description) as Any? ?? NSNull(),
                    "reset": report.reset.map { reset -> [String: Any] in
                        [
                            "reason": reset.reason.rawValue, "resynced": reset.resynced, "rebased": reset.rebased,
                            "needs_attention": reset.needsAttention, "message": reset.summary,
                        ]
                    } as Any? ?? NSNull(),
                ])
            } else {
                Output.line("sent \(report.sent), dead letters \(report.deadLettered), conflicts \(report.conflictsParked), remaining \(report.remaining)")
                let pulled = report.pullError.map { "pull failed: \($0)" }
                    ?? "pulled \(report.pulled) change(s), applied \(report.applied)\(report.baseSync ? " (full sync)" : "")"
                Output.line(pulled)
                if let reset = report.reset { Output.line(reset.summary) }
            }
            if report.remaining > 0, status.error == .offline {
                throw CLIError.unreachable("server unreachable; \(report.remaining) change(s) still queued")
            }
            if report.pullError == .offline { throw CLIError.unreachable("server unreachable; nothing pulled") }
            if status.conflictCount > 0 { throw CLIError.conflict("a conflict needs attention: run `edugo conflicts list`") }
        }
    }
}

extension SyncCommand {
    struct Watch: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Keep syncing and print each change pulled from the server as it is applied, until Ctrl-C.",
            discussion: "Holds the server's live stream (GET /v1/sync/events) and pulls on every event; with --json, one JSON object per line.")
        @OptionGroup var global: GlobalOptions

        func preflight() throws {
            try global.requireServer(for: "sync watch")
        }

        func run(in session: CommandSession) async throws {
            Interrupt.install()
            let sdk = session.sdk
            let changes = sdk.engine.remoteChanges()
            let json = global.json
            if !json { Output.line("watching for changes (Ctrl-C to stop)…") }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sdk.run() }
                group.addTask {
                    for await batch in changes {
                        for change in batch { Self.print(change, json: json) }
                    }
                }
                group.addTask { await Interrupt.wait() }
                _ = await group.next()
                group.cancelAll()
            }
        }

        static func print(_ change: RemoteChange, json: Bool) {
            let at = Output.iso(Date())
            if json {
                Output.jsonLine([
                    "type": change.type, "op": change.operation.rawValue, "id": change.id,
                    "course_id": change.courseID as Any? ?? NSNull(), "at": at,
                ])
                return
            }
            let course = change.courseID.map { " in course \($0)" } ?? ""
            Output.line("\(change.operation == .delete ? "removed" : "updated") \(change.type) \(change.id)\(course)")
        }
    }
}

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Writes waiting to sync.", subcommands: [List.self], defaultSubcommand: List.self)

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List queued writes.")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            let items = try await session.engine.outbox.pending()
            if global.json {
                Output.json(["items": items.map { ["id": $0.id, "resource": $0.resource.description, "method": $0.method, "path": $0.path, "attempts": $0.attempts, "created_at": Output.iso($0.createdAt)] as [String: Any] }])
                return
            }
            if items.isEmpty { Output.line("nothing queued") }
            for item in items { Output.line("\(item.id)  \(item.method) \(item.path)  attempts \(item.attempts)") }
        }
    }
}

struct DeadLettersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters", abstract: "Writes the server refused.", subcommands: [List.self, Retry.self, Discard.self])

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            let letters = try await session.engine.outbox.deadLetters()
            if global.json {
                Output.json(["items": letters.map { ["id": $0.id, "method": $0.method, "path": $0.path, "reason": $0.reason, "status": $0.status ?? 0] as [String: Any] }])
                return
            }
            if letters.isEmpty { Output.line("no dead letters") }
            for letter in letters { Output.line("\(letter.id)  \(letter.method) \(letter.path)  \(letter.reason)") }
        }
    }

    struct Retry: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "retry")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64

        func run(in session: CommandSession) async throws {
            try await session.engine.outbox.retryDeadLetter(id: id)
            try await session.reportWrite()
        }
    }

    struct Discard: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "discard")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64

        func run(in session: CommandSession) async throws {
            try await session.engine.outbox.discardDeadLetter(id: id)
            if global.json { Output.json(["discarded": id]) } else { Output.line("Discarded.") }
        }
    }
}

struct ConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "Conflicts waiting for you.", subcommands: [List.self, Resolve.self])

    struct List: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "list")
        @OptionGroup var global: GlobalOptions

        func run(in session: CommandSession) async throws {
            let conflicts = try await session.engine.outbox.conflicts()
            if global.json {
                Output.json(["items": conflicts.map { ["id": $0.id, "resource": $0.resource.description, "server_version": $0.serverVersion ?? 0] as [String: Any] }])
                return
            }
            if conflicts.isEmpty { Output.line("no conflicts") }
            for conflict in conflicts { Output.line("\(conflict.id)  \(conflict.resource)  server version \(conflict.serverVersion ?? 0)") }
        }
    }

    struct Resolve: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "resolve")
        enum Keep: String, ExpressibleByArgument { case mine, server }

        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Option(help: "Which side to keep: mine or server.") var keep: Keep

        func run(in session: CommandSession) async throws {
            try await session.engine.outbox.resolveConflict(id: id, choice: keep == .mine ? .keepMine : .keepServer)
            try await session.reportWrite()
        }
    }
}
