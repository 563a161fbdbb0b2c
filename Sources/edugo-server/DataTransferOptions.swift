import ArgumentParser
import EduGoServer
import Foundation

/// The serving command's `--import` and `--export-on-exit`: an import before the server opens the
/// data directory, an export after it has stopped (in-flight requests finished, databases closed).
struct DataTransferOptions {
    var importFrom: URL?
    var exportOnExit: URL?

    init(importFrom: String?, exportOnExit: String?, inMemory: Bool) throws {
        self.importFrom = importFrom.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
        self.exportOnExit = exportOnExit.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
        guard !inMemory || (self.importFrom == nil && self.exportOnExit == nil) else {
            throw ValidationError("--import and --export-on-exit work on a data directory: drop --in-memory.")
        }
    }

    /// Refuses an `--export-on-exit` destination the export would refuse, before the server starts.
    func checkExportDestination() throws {
        guard let exportOnExit else { return }
        try DataExport.checkDestination(exportOnExit)
    }

    /// Replaces the data directory's data with the export, or refuses naming the bad file (the
    /// server then does not start).
    func importIfAsked(into dataDirectory: URL) throws {
        guard let importFrom else { return }
        let summary = try DataImport.importData(from: importFrom, into: dataDirectory, replace: true)
        say("Imported \(summary.tenants.count) tenants from \(importFrom.path)")
    }

    /// Exports the data directory once the server has stopped.
    func exportIfAsked(from dataDirectory: URL) throws {
        guard let exportOnExit else { return }
        let manifest = try DataExport.export(dataDirectory: dataDirectory, to: exportOnExit)
        say("Exported \(manifest.tenants.count) tenants to \(exportOnExit.path)")
    }

    /// Writes a line to standard output unbuffered, in order with the banner.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
