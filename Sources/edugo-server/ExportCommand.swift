import ArgumentParser
import EduGoServer
import Foundation

/// `edugo-server export --data-dir D --to DIR`: writes a data directory's state to an export folder.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports --data-dir (tenants, users, sessions, courses, media, signing key) to a folder.",
        discussion: """
            Exports --data-dir (or EDUGO_DATA_DIR, else ./.edugo). Safe while a server runs on it: \
            each database is copied with SQLite's online backup. The export is written next to the \
            destination and swapped in with one rename, so a failed or interrupted export leaves \
            the previous one intact. The export holds the signing key and password hashes: its \
            files are 0600, its folders 0700.
            """)

    /// Holds `--data-dir` (the serving command's option, read wherever it stands on the line).
    @ParentCommand var server: EduGoServerCommand

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("The export folder: missing, empty, or an earlier export (replaced as a whole).", valueName: "dir"))
    var destination: String

    func run() throws {
        let source = DataDirectoryOption.resolve(server.dataDirectory)
        let manifest = try DataExport.export(dataDirectory: source, to: URL(fileURLWithPath: destination, isDirectory: true))
        print("Exported \(manifest.tenants.count) tenants (\(manifest.files.count) files) from \(source.path) to \(destination)")
    }
}

/// `edugo-server import --data-dir D --from DIR [--replace]`: replaces a data directory's state with an export's.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports an export folder into --data-dir, all or nothing.",
        discussion: """
            Imports into --data-dir (or EDUGO_DATA_DIR, else ./.edugo). Every file is checked \
            first (listed in manifest.json with a matching SHA-256, a known kind of file, each \
            database passing PRAGMA integrity_check); a file that fails is named and nothing \
            changes. A data directory that already holds data is refused unless --replace is \
            given, which swaps the whole directory in one rename. Stop any server using the data \
            directory first.
            """)

    /// Holds `--data-dir` (the serving command's option, read wherever it stands on the line).
    @ParentCommand var server: EduGoServerCommand

    @Option(name: .customLong("from"), help: ArgumentHelp("The export folder to import.", valueName: "dir"))
    var source: String

    @Flag(help: "Replace the data directory's data as a whole if it holds some.")
    var replace = false

    func run() throws {
        let target = DataDirectoryOption.resolve(server.dataDirectory)
        let summary = try DataImport.importData(
            from: URL(fileURLWithPath: source, isDirectory: true), into: target, replace: replace)
        print(
            "Imported \(summary.tenants.count) tenants from \(source) into \(target.path)"
                + (summary.replacedData ? " (its previous data was replaced)" : ""))
    }
}

/// `--data-dir` as every command reads it: the flag, else `EDUGO_DATA_DIR`, else `./.edugo`.
enum DataDirectoryOption {
    static func resolve(_ flag: String?) -> URL {
        URL(
            fileURLWithPath: flag ?? ProcessInfo.processInfo.environment["EDUGO_DATA_DIR"] ?? ".edugo", isDirectory: true
        ).standardizedFileURL
    }
}
