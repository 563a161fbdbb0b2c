import ArgumentParser
import EduGoSDK

/// A command that works in the signed-in user's session: client → session → refresh → body.
///
/// Its `run()` builds the client (see ``ClientCommand``), resumes the session (exit 3, "not signed
/// in", when nobody is), refreshes ``reads`` from the server unless `--offline`, and hands the
/// session to ``run(in:)``, which reads the local store and prints.
///
/// ```swift
/// struct List: SessionCommand {
///     @OptionGroup var global: GlobalOptions
///     var reads: [RefreshJob] { [.courses] }
///     func run(in session: CommandSession) async throws {
///         try print(try await session.courses.list(), stale: session.stale, options: global)
///     }
/// }
/// ```
protocol SessionCommand: ClientCommand {
    /// What the command reads, fetched from the server before ``run(in:)``; none unless the
    /// command says otherwise.
    var reads: [RefreshJob] { get }

    /// The command's work in the signed-in user's session.
    ///
    /// - Parameter session: the session, with why the data of ``reads`` may be stale.
    func run(in session: CommandSession) async throws
}

extension SessionCommand {
    var reads: [RefreshJob] { [] }

    func run(with client: EduGoClient) async throws {
        guard let sdk = try await client.resumeSession() else { throw CLIError.notSignedIn }
        var session = CommandSession(client: client, sdk: sdk, options: global)
        if !reads.isEmpty { session.stale = try await session.refresh(reads) }
        try await run(in: session)
    }
}
