import ArgumentParser
import EduGoSDK
import Foundation
import Logging

/// `edugo`: the EduGo command-line client, a thin layer over EduGoSDK.
@main
struct EduGoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edugo",
        abstract: "A command-line client for EduGo, offline-first like the app.",
        discussion: """
            Reads answer from the local store (and refresh it when the server is reachable); writes are \
            queued and synced. Exit codes: 0 ok, 1 usage or other error, 2 network unreachable for a \
            command that needs it, 3 authentication, 4 a conflict needs attention, 5 the server's public \
            key matches no --pin (nothing was sent).
            """,
        subcommands: [
            LoginCommand.self, LogoutCommand.self, WhoAmICommand.self, CoursesCommand.self, LessonsCommand.self,
            EnrollCommand.self, ProgressCommand.self, ProfileCommand.self, SyncCommand.self, OutboxCommand.self,
            DeadLettersCommand.self, ConflictsCommand.self, DownloadCommand.self, DownloadsCommand.self,
        ])

    static func main() async {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            bootstrapLogging(verbose: arguments.contains("-v"))
            var command = try parseAsRoot(globalOptionsLast(arguments))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            Output.error(error.description)
            Foundation.exit(error.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                FileHandle.standardOutput.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(0)
            }
            if code == .validationFailure || error is ValidationError {
                Output.error(fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "usage error")
                Foundation.exit(1)
            }
            let classified = CLIError.from(error)
            Output.error(classified.description)
            Foundation.exit(classified.exitCode)
        }
    }
}

/// The SDK's own log lines reach stderr only with `-v`: without it an error is exactly one line.
func bootstrapLogging(verbose: Bool) {
    LoggingSystem.bootstrap { label in
        guard verbose else { return SwiftLogNoOpLogHandler(label) }
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .debug
        return handler
    }
}

/// Global options may come before the command (`edugo --json sync status`): move the ones given
/// there after it, where the command's option group reads them.
func globalOptionsLast(_ arguments: [String]) -> [String] {
    let withValue: Set<String> = ["--server", "--tenant", "--data-dir", "--timeout", "--pin", "--ca-cert"]
    let flags: Set<String> = ["--json", "--offline", "-v"]
    var leading: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        if withValue.contains(name) {
            leading.append(argument)
            if !argument.contains("="), index + 1 < arguments.count {
                leading.append(arguments[index + 1])
                index += 1
            }
        } else if flags.contains(argument) {
            leading.append(argument)
        } else {
            break
        }
        index += 1
    }
    return Array(arguments[index...]) + leading
}

/// The error of a read that found `what` missing from the store: exit 2 when the server could
/// not be asked (`stale`), 1 when it was asked and the store still has nothing.
func notCached(_ what: String, stale: StaleReason?) -> CLIError {
    guard let stale else { return .failed("\(what) not cached") }
    return .unreachable("\(what) not cached and \(Output.describe(stale))")
}

/// Fails a list read that found nothing in the store and could not ask the server (exit 2).
func requireCached(_ fetchedAt: Date?, isEmpty: Bool, stale: StaleReason?, what: String) throws {
    guard stale != nil, fetchedAt == nil, isEmpty else { return }
    throw notCached(what, stale: stale)
}
