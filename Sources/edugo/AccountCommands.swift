import ArgumentParser
import EduGoSDK
import Foundation

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The account's email.") var email: String
    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input.") var passwordStdin = false

    // Not a ClientCommand: the password is asked for before the client is built.
    func run() async throws {
        try global.requireServer(for: "login")
        let password: String
        if passwordStdin {
            password = (readLine(strippingNewline: true) ?? "")
        } else {
            guard let typed = getpass("Password: ") else { throw CLIError.failed("no password given") }
            password = String(cString: typed)
        }
        let client = try global.client()
        let signedIn = try await client.signIn(email: email, password: password)
        let session = CommandSession(client: client, sdk: signedIn, options: global)
        _ = try await session.refresh([.profile, .enrollments])
        let user = try await session.profile.me()?.value
        if global.json {
            Output.json(["signed_in": true, "email": user?.email ?? email, "user_id": session.store.userID, "tenant": global.tenant])
        } else {
            Output.line("Signed in as \(user?.email ?? email) (\(global.tenant)).")
        }
    }
}

struct LogoutCommand: ClientCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out and delete the local store.")

    @OptionGroup var global: GlobalOptions
    @Flag(name: .customLong("discard-pending"), help: "Sign out even if writes are not synced, dead letters or conflicts exist (they are lost).")
    var discardPending = false

    func run(with client: EduGoClient) async throws {
        try await client.signOut(discardingPendingChanges: discardPending)
        if global.json { Output.json(["signed_out": true]) } else { Output.line("Signed out.") }
    }
}

struct WhoAmICommand: SessionCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")

    @OptionGroup var global: GlobalOptions
    var reads: [RefreshJob] { [.profile] }

    func run(in session: CommandSession) async throws {
        guard let me = try await session.profile.me() else { throw notCached("profile", stale: session.stale) }
        if global.json {
            Output.json(
                [
                    "id": me.value.id, "email": me.value.email, "first_name": me.value.firstName, "last_name": me.value.lastName,
                    "role": me.value.role, "tenant": global.tenant, "pending_writes": me.hasPendingWrites,
                ].merging(Output.staleJSON(session.stale)) { $1 })
        } else {
            let pending = me.hasPendingWrites ? 1 : 0
            Output.line("\(me.value.firstName) \(me.value.lastName) <\(me.value.email)> \(me.value.role) in \(global.tenant) "
                + Output.freshness(fetchedAt: me.fetchedAt, pending: pending, stale: session.stale))
        }
    }
}

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Change your profile.", subcommands: [Set.self])

    struct Set: SessionCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change your name.")

        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("first-name")) var firstName: String?
        @Option(name: .customLong("last-name")) var lastName: String?
        var reads: [RefreshJob] { [.profile] }

        func validate() throws {
            if firstName == nil && lastName == nil { throw ValidationError("give --first-name and/or --last-name") }
        }

        func run(in session: CommandSession) async throws {
            try await session.profile.update(firstName: firstName, lastName: lastName)
            try await session.reportWrite()
        }
    }
}
