import Foundation
import Testing

@testable import EduGoServer

/// The real `edugo-server` binary: `--export-on-exit`, `--import`, and the `export`/`import` commands.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct ExportOnExitTests {
    @Test("--export-on-exit exports on SIGTERM and exits 0; a kill -9 during the next export leaves the first intact and importable")
    func killDuringExportKeepsThePreviousOne() async throws {
        try await withTemporaryDirectory { root in
            let data = root.appendingPathComponent("data", isDirectory: true)
            let export = root.appendingPathComponent("export", isDirectory: true)
            let account = Credentials.newcomer("exported@example.com")

            // Given a server run with --export-on-exit, stopped with SIGTERM after a registration
            let first = try await ServerProcess.launch(dataDirectory: data, arguments: ["--export-on-exit", export.path])
            do {
                let client = LiveClient(baseURL: first.baseURL)
                defer { client.session.invalidateAndCancel() }
                try await client.registerVerified(account)
            } catch {
                await first.kill()
                throw error
            }
            let stopped = await first.stop()
            #expect(stopped, "SIGTERM should export and exit 0; stderr: \(first.stderr.value)")
            let manifest = try Data(contentsOf: export.appendingPathComponent("manifest.json"))
            let exported = try DataExportTests.state(of: export)

            // When the next run's export is killed half-way (a large media file makes it take a while)
            let media = data.appendingPathComponent("media/demo", isDirectory: true)
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            let large = media.appendingPathComponent("lesson-large.\(String(repeating: "0", count: 64))")
            _ = FileManager.default.createFile(atPath: large.path, contents: nil)
            let handle = try FileHandle(forWritingTo: large)
            let chunk = Data(repeating: 0x2a, count: 1 << 20)
            for _ in 0..<384 { try handle.write(contentsOf: chunk) }
            try handle.close()
            let second = try await ServerProcess.launch(dataDirectory: data, arguments: ["--export-on-exit", export.path])
            second.process.terminate()
            let staging = try await Self.waitForStaging(of: export, in: root, while: second)
            await second.kill()
            #expect(second.killedBySignal, "the export should still have been running: \(second.stdout.value)")
            #expect(staging != nil, "no export in progress was seen")

            // Then the first export is whole: the same files with the same bytes
            #expect(try Data(contentsOf: export.appendingPathComponent("manifest.json")) == manifest)
            #expect(try DataExportTests.state(of: export) == exported)

            // and it imports into a fresh data directory, where the account signs in.
            let fresh = root.appendingPathComponent("fresh", isDirectory: true)
            let imported = try await ServerProcess.runToExit(["import", "--data-dir", fresh.path, "--from", export.path])
            #expect(imported.status == 0, "\(imported.output)")
            let restarted = try await ServerProcess.launch(dataDirectory: fresh)
            let client = LiveClient(baseURL: restarted.baseURL)
            defer { client.session.invalidateAndCancel() }
            let login = try await client.login(account)
            await restarted.stop()
            #expect(login.status == 200, "login answered \(login.status): \(login.text)")
        }
    }

    @Test("--import at start serves the export's data; a foreign file in it stops the start, named, with the data directory unchanged")
    func importAtStart() async throws {
        try await withTemporaryDirectory { root in
            let export = try await DataExportTests.makeExport(in: root)
            let target = root.appendingPathComponent("target", isDirectory: true)

            // A foreign file: the server does not start, names it, and creates nothing.
            let foreign = export.appendingPathComponent("keys/extra.pem")
            try Data("-----BEGIN-----".utf8).write(to: foreign)
            let refused = try await ServerProcess.runToExit([
                "--port", "0", "--data-dir", target.path, "--import", export.path,
            ])
            #expect(refused.status != 0)
            #expect(refused.output.contains("keys/extra.pem"), "\(refused.output)")
            #expect(!FileManager.default.fileExists(atPath: target.path))

            // Without it, the server starts on the imported data.
            try FileManager.default.removeItem(at: foreign)
            let server = try await ServerProcess.launch(dataDirectory: target, arguments: ["--import", export.path])
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            let login = try await client.login(.demoTeacher)
            await server.stop()
            #expect(server.stdout.value.contains("Imported 2 tenants"), "\(server.stdout.value)")
            #expect(login.status == 200, "login answered \(login.status): \(login.text)")
        }
    }

    @Test("the import command refuses a corrupt file by name and a data directory with data unless --replace")
    func importCommandRefusals() async throws {
        try await withTemporaryDirectory { root in
            let export = try await DataExportTests.makeExport(in: root)
            let data = root.appendingPathComponent("data", isDirectory: true)
            let holding = try await ServerProcess.runToExit(["import", "--data-dir", data.path, "--from", export.path])
            #expect(holding.status != 0)
            #expect(holding.output.contains("--replace"), "\(holding.output)")

            try DataExportTests.overwrite(byteAt: 99, of: export.appendingPathComponent("tenants/acme.sqlite"))
            let before = try DataExportTests.state(of: data)
            let corrupt = try await ServerProcess.runToExit([
                "import", "--data-dir", data.path, "--from", export.path, "--replace",
            ])
            #expect(corrupt.status != 0)
            #expect(corrupt.output.contains("tenants/acme.sqlite is corrupt"), "\(corrupt.output)")
            #expect(try DataExportTests.state(of: data) == before)
        }
    }

    @Test("--export-on-exit naming a folder that is not an export stops the start, before anything is served, and leaves the folder alone")
    func exportOnExitDestinationIsCheckedAtStart() async throws {
        try await withTemporaryDirectory { root in
            let data = root.appendingPathComponent("data", isDirectory: true)
            let app = root.appendingPathComponent("webapp", isDirectory: true)
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try Data(#"{"name": "My PWA"}"#.utf8).write(to: app.appendingPathComponent("manifest.json"))
            try Data("<!doctype html>".utf8).write(to: app.appendingPathComponent("index.html"))

            let refused = try await ServerProcess.runToExit([
                "--port", "0", "--data-dir", data.path, "--export-on-exit", app.path,
            ])
            #expect(refused.status != nil && refused.status != 0, "the server started: \(refused.output)")
            #expect(refused.output.contains("Refusing to export to"), "\(refused.output)")
            #expect(!refused.output.contains("http://127.0.0.1"), "the server served before refusing: \(refused.output)")
            #expect(try DataExportTests.listing(of: app) == ["index.html", "manifest.json"])
        }
    }

    /// Polls (bounded) for the hidden folder an export of `export` is written in, while `server` runs.
    static func waitForStaging(of export: URL, in root: URL, while server: ServerProcess) async throws -> String? {
        let prefix = DataExport.stagingPrefix(of: export)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, server.process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            if let staging = names.first(where: { $0.hasPrefix(prefix) }),
                FileManager.default.fileExists(atPath: root.appendingPathComponent("\(staging)/media").path)
            {
                return staging
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }
}
