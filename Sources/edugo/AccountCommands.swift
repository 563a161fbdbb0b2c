import ArgumentParser
import EduGoSDK
import Foundation

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The account's email.") var email: String
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        if global.offline { throw CLIError.unreachable("login needs the server; drop --offline") }
        let password: String
        if passwordStdin {
            password = (readLine(strippingNewline: true) ?? "")
        } else {
            guard let typed = getpass("Password: ") else { throw CLIError.failed("no password given") }
            password = String(cString: typed)
        }
        let client = try global.client()
        let session = try await client.signIn(email: email, password: password)
        _ = try await refresh(session, [.profile, .enrollments], options: global)
        let user = try await session.profile.me()?.value
        if global.json {
            Output.json(["signed_in": true, "email": user?.email ?? email, "user_id": session.store.userID, "tenant": global.tenant])
        } else {
            Output.line("Signed in as \(user?.email ?? email) (\(global.tenant)).")
        }
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out and delete the local store.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .customLong("discard-pending"), help: "Sign out even if writes are not synced, dead letters or conflicts exist (they are lost).")
    var discardPending = false

    func run() async throws {
        let client = try global.client()
        try await client.signOut(discardingPendingChanges: discardPending)
        if global.json { Output.json(["signed_out": true]) } else { Output.line("Signed out.") }
    }
}

struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let client = try global.client()
        let session = try await global.session(client)
        let stale = try await refresh(session, [.profile], options: global)
        guard let me = try await session.profile.me() else { throw notCached("profile", stale: stale) }
        if global.json {
            Output.json(
                [
                    "id": me.value.id, "email": me.value.email, "first_name": me.value.firstName, "last_name": me.value.lastName,
                    "role": me.value.role, "tenant": global.tenant, "pending_writes": me.hasPendingWrites,
                ].merging(Output.staleJSON(stale)) { $1 })
        } else {
            let pending = me.hasPendingWrites ? 1 : 0
            Output.line("\(me.value.firstName) \(me.value.lastName) <\(me.value.email)> \(me.value.role) in \(global.tenant) "
                + Output.freshness(fetchedAt: me.fetchedAt, pending: pending, stale: stale))
        }
    }
}

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Change your profile.", subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change your name.")

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("first-name")) var firstName: String?
        @Option(name: .customLong("last-name")) var lastName: String?

        func validate() throws {
            if firstName == nil && lastName == nil { throw ValidationError("give --first-name and/or --last-name") }
        }

        func run() async throws {
            let client = try global.client()
            let session = try await global.session(client)
            _ = try await refresh(session, [.profile], options: global)
            try await session.profile.update(firstName: firstName, lastName: lastName)
            try await reportWrite(session, options: global)
        }
    }
}

/// After a write: sync it unless offline, and say whether it reached the server.
func reportWrite(_ session: OfflineSession, options: GlobalOptions) async throws {
    var synced = false
    if !options.offline {
        let report = await session.engine.syncNow()
        synced = report.remaining == 0
    }
    let status = session.engine.status
    if options.json {
        Output.json(["queued": !synced, "pending": status.pendingCount, "dead_letters": status.deadLetterCount, "conflicts": status.conflictCount])
    } else {
        Output.line(synced ? "Saved." : "Saved locally; queued for sync (\(status.pendingCount) pending).")
    }
    if status.conflictCount > 0 { throw CLIError.conflict("a conflict needs attention: run `edugo conflicts list`") }
}
