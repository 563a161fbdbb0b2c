import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `DataExport` and `DataImport`: a data directory's state written to a folder and put back, all or nothing.
@Suite(.timeLimit(.minutes(3)))
struct DataExportTests {
    @Test("exported while the server runs and imported into a fresh data directory, every read, token and refresh session answers as before")
    func roundTrip() async throws {
        try await withTemporaryDirectory { root in
            let first = root.appendingPathComponent("first", isDirectory: true)
            let second = root.appendingPathComponent("second", isDirectory: true)
            let export = root.appendingPathComponent("export", isDirectory: true)
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(first)

            // Given a server with 50 changes, signed-in callers, and an export taken while it runs
            let (before, admin, student, pair) = try await withServer(configuration) { client in
                let admin = try await client.caller(.demoAdmin)
                let teacher = try await client.caller(.demoTeacher)
                let student = try await client.caller(.demoStudent)
                _ = try await client.makeFiftyChanges(admin: admin, teacher: teacher, student: student)
                let pair = try await client.signIn(.acmeAdmin)
                let before = try await client.everyRead(admin: admin, student: student)
                try DataExport.export(dataDirectory: first, to: export)
                return (before, admin, student, pair)
            }

            // When it is imported into a fresh data directory and a server starts on that
            let summary = try DataImport.importData(from: export, into: second, replace: false)
            #expect(summary.tenants == ["acme", "demo"])
            #expect(summary.replacedData == false)
            configuration.storage = .directory(second)
            try await withServer(configuration) { client in
                // Then every read answers the same, with the tokens issued before the export
                let after = try await client.everyRead(admin: admin, student: student)
                #expect(after.keys.sorted() == before.keys.sorted())
                for (read, answer) in before {
                    #expect(after[read] == answer, "\(read) differs after the import")
                }
                // and the sessions came along: the access token verifies, the refresh token rotates.
                #expect(try await client.me(pair.accessToken).status == .ok)
                #expect(try await client.refresh(pair.refreshToken, tenant: "acme").status == .ok)
            }
        }
    }

    @Test("an export's folders are 0700 and its files 0600, and its manifest lists every file with its SHA-256")
    func exportIsPrivateAndListed() async throws {
        try await withTemporaryDirectory { root in
            let export = try await Self.makeExport(in: root)
            let data = try Data(contentsOf: export.appendingPathComponent("manifest.json"))
            let manifest = try ExportManifest.decoder.decode(ExportManifest.self, from: data)
            #expect(manifest.format == ExportManifest.currentFormat)
            #expect(manifest.tenants == ["acme", "demo"])
            #expect(
                Set(manifest.files.map(\.path))
                    == ["registry.sqlite", "tenants/acme.sqlite", "tenants/demo.sqlite", "keys/es256-signing-key.pem"])
            for file in manifest.files {
                #expect(try FileDigest.of(export.appendingPathComponent(file.path)).sha256 == file.sha256, "\(file.path)")
            }
            #expect(try Self.mode(of: export) == 0o700)
            for path in try Self.listing(of: export) {
                let url = export.appendingPathComponent(path)
                let isFolder = (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory == true
                #expect(try Self.mode(of: url) == (isFolder ? 0o700 : 0o600), "\(path)")
            }
        }
    }

    @Test("an export replaces an earlier one at its destination and refuses a folder that is not one")
    func exportReplacesOnlyAnExport() async throws {
        try await withTemporaryDirectory { root in
            let export = try await Self.makeExport(in: root)
            let data = root.appendingPathComponent("data", isDirectory: true)
            try DataExport.export(dataDirectory: data, to: export)
            #expect(try Self.listing(of: root).filter { $0.contains(".export-") }.isEmpty, "no staging folder is left")

            let other = root.appendingPathComponent("other", isDirectory: true)
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: other.appendingPathComponent("notes.txt"))
            #expect(throws: DataTransferError.destinationNotAnExport(directory: other.path)) {
                try DataExport.export(dataDirectory: data, to: other)
            }
            #expect(try Self.listing(of: other) == ["notes.txt"])
        }
    }

    @Test("a folder that merely holds a file named manifest.json (a web app) is never replaced by an export")
    func webAppWithAManifestIsNotReplaced() async throws {
        try await withTemporaryDirectory { root in
            let export = try await Self.makeExport(in: root)
            let data = root.appendingPathComponent("data", isDirectory: true)
            // Given a web app's folder: a PWA manifest, a page and a source folder
            let app = root.appendingPathComponent("webapp", isDirectory: true)
            try FileManager.default.createDirectory(at: app.appendingPathComponent("src"), withIntermediateDirectories: true)
            try Data(#"{"name": "My PWA", "start_url": "/", "display": "standalone"}"#.utf8)
                .write(to: app.appendingPathComponent("manifest.json"))
            try Data("<!doctype html>".utf8).write(to: app.appendingPathComponent("index.html"))
            try Data("console.log(1)".utf8).write(to: app.appendingPathComponent("src/app.js"))

            // When an export is asked to go there, then it is refused and the folder is as it was
            #expect(throws: DataTransferError.destinationNotAnExport(directory: app.path)) {
                try DataExport.export(dataDirectory: data, to: app)
            }
            #expect(try Self.listing(of: app) == ["index.html", "manifest.json", "src", "src/app.js"])

            // And an earlier export that has since been given a file its manifest does not list is refused too
            try Data("mine".utf8).write(to: export.appendingPathComponent("notes.txt"))
            #expect(throws: DataTransferError.destinationNotAnExport(directory: export.path)) {
                try DataExport.export(dataDirectory: data, to: export)
            }
            #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent("notes.txt").path))
        }
    }

    @Test("a file whose bytes do not match its SHA-256 is refused by name, and the data directory is as it was")
    func corruptFileIsRefused() async throws {
        try await Self.withImportedTarget { export, target in
            try Self.overwrite(byteAt: 99, of: export.appendingPathComponent("tenants/demo.sqlite"))
            let error = try Self.importError(from: export, into: target)
            #expect(error.description.contains("tenants/demo.sqlite"), "\(error)")
            guard case .corruptFile(path: "tenants/demo.sqlite", let reason) = error else {
                Issue.record("expected corruptFile, got \(error)")
                return
            }
            #expect(reason.contains("SHA-256"))
        }
    }

    @Test("a file the manifest does not list is refused as foreign, by name, and the data directory is as it was")
    func foreignFileIsRefused() async throws {
        try await Self.withImportedTarget { export, target in
            try Data("not ours".utf8).write(to: export.appendingPathComponent("tenants/notes.txt"))
            let error = try Self.importError(from: export, into: target)
            #expect(error == .foreignFile(path: "tenants/notes.txt"))
            #expect(error.description.contains("tenants/notes.txt"))
        }
    }

    @Test("a file listed with its right checksum that is not a SQLite database is refused by name")
    func notADatabaseIsRefused() async throws {
        try await Self.withImportedTarget { export, target in
            let file = export.appendingPathComponent("tenants/acme.sqlite")
            try Data(repeating: 0x5a, count: 8192).write(to: file)
            try Self.rewriteManifest(of: export) { manifest in
                let digest = try FileDigest.of(file)
                for index in manifest.files.indices where manifest.files[index].path == "tenants/acme.sqlite" {
                    manifest.files[index].sha256 = digest.sha256
                    manifest.files[index].bytes = digest.bytes
                }
            }
            let error = try Self.importError(from: export, into: target)
            #expect(error == .corruptFile(path: "tenants/acme.sqlite", reason: "it is not a SQLite database"))
        }
    }

    @Test("an export in a newer format is refused before anything is read")
    func newerFormatIsRefused() async throws {
        try await Self.withImportedTarget { export, target in
            try Self.rewriteManifest(of: export) { $0.format = ExportManifest.currentFormat + 1 }
            let error = try Self.importError(from: export, into: target)
            #expect(error == .newerFormat(found: ExportManifest.currentFormat + 1, supported: ExportManifest.currentFormat))
        }
    }

    @Test("an import into a data directory that holds data is refused without replace")
    func holdingDataNeedsReplace() async throws {
        try await Self.withImportedTarget { export, target in
            #expect(throws: DataTransferError.targetHoldsData(directory: target.standardizedFileURL.path)) {
                try DataImport.importData(from: export, into: target, replace: false)
            }
        }
    }

    // MARK: - Fixtures

    /// A file-backed dev server's data directory (`<root>/data`) exported to `<root>/export`.
    static func makeExport(in root: URL) async throws -> URL {
        let data = root.appendingPathComponent("data", isDirectory: true)
        let export = root.appendingPathComponent("export", isDirectory: true)
        var configuration = ServerConfiguration.testing()
        configuration.storage = .directory(data)
        try await withServer(configuration) { client in
            _ = try await client.caller(.demoTeacher)
        }
        try DataExport.export(dataDirectory: data, to: export)
        return export
    }

    /// An export, and a data directory that holds an earlier import of it. After `body`, the data
    /// directory must hold exactly what it held before (same files, same bytes).
    static func withImportedTarget(_ body: (URL, URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { root in
            let export = try await makeExport(in: root)
            let target = root.appendingPathComponent("target", isDirectory: true)
            try DataImport.importData(from: export, into: target, replace: false)
            let before = try state(of: target)
            try await body(export, target)
            #expect(try state(of: target) == before, "the data directory changed")
            #expect(try listing(of: root).filter { $0.contains(".import-") }.isEmpty, "no staging folder is left")
        }
    }

    /// The error `DataImport` refuses the export with (a replacing import).
    static func importError(from export: URL, into target: URL) throws -> DataTransferError {
        do {
            try DataImport.importData(from: export, into: target, replace: true)
        } catch let error as DataTransferError {
            return error
        }
        throw HelperFailure(description: "the import was accepted")
    }

    /// Every file under `directory` with its SHA-256.
    static func state(of directory: URL) throws -> [String: String] {
        var state: [String: String] = [:]
        for path in try listing(of: directory) {
            let url = directory.appendingPathComponent(path)
            guard (try url.resourceValues(forKeys: [.isDirectoryKey])).isDirectory != true else { continue }
            state[path] = try FileDigest.of(url).sha256
        }
        return state
    }

    /// The relative paths of everything under `directory`, hidden entries included, sorted.
    static func listing(of directory: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else {
            throw HelperFailure(description: "cannot list \(directory.path)")
        }
        return walker.compactMap { $0 as? String }.sorted()
    }

    static func mode(of url: URL) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: url.path))[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Changes one byte in place (the SQLite header's library version number at 96–99 is read by
    /// no check but the checksum).
    static func overwrite(byteAt offset: Int, of url: URL) throws {
        var data = try Data(contentsOf: url)
        data[offset] ^= 0xff
        try data.write(to: url)
    }

    static func rewriteManifest(of export: URL, _ change: (inout ExportManifest) throws -> Void) throws {
        let file = export.appendingPathComponent("manifest.json")
        var manifest = try ExportManifest.decoder.decode(ExportManifest.self, from: Data(contentsOf: file))
        try change(&manifest)
        try ExportManifest.encoder.encode(manifest).write(to: file)
    }
}
