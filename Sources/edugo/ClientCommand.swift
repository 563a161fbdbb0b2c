import ArgumentParser
import EduGoSDK

/// A command that talks to the SDK's client: its `run()` checks what can be checked offline
/// (``preflight()``), builds the client from the global options, and hands it to ``run(with:)``.
/// Errors reach `EduGoCommand.main()`, which maps them to the message and exit code.
protocol ClientCommand: AsyncParsableCommand {
    /// The options every command takes.
    var global: GlobalOptions { get }

    /// Checks made before the client is built, such as refusing `--offline` for a command that
    /// needs the server. Does nothing unless the command says otherwise.
    ///
    /// - Throws: the error the command then ends with.
    func preflight() throws

    /// The command's work with the client.
    ///
    /// - Parameter client: the SDK's front door, configured from ``global``.
    func run(with client: EduGoClient) async throws
}

extension ClientCommand {
    func preflight() throws {}

    func run() async throws {
        try preflight()
        try await run(with: global.client())
    }
}
