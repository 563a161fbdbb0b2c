import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Testing

/// The real `edugo` binary against a TLS server: `--ca-cert` and `--pin`.
@Suite(.serialized, .timeLimit(.minutes(5))) struct CLIPinningEndToEndTests {
    @Test("--ca-cert with the right --pin works; a wrong --pin exits 5 with one line on stderr")
    func pinsOnTheCommandLine() async throws {
        try await withTemporaryDirectory { root in
            try await EduGoTestServer.with(tls: true, { $0.seedDemoData = true }) { server in
                let tls = try #require(server.tls)
                let certificate = try #require(tls.certificateFile?.path)
                let right = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("right"))
                let trusted = ["--ca-cert", certificate, "--pin", unrelatedPin(), "--pin", tls.pin]
                let login = try await right.run(
                    trusted + ["login", "--email", Demo.studentEmail, "--password-stdin"], input: Demo.studentPassword + "\n")
                #expect(login.status == 0, "\(login.stderr)")
                let list = try await right.run(trusted + ["--json", "courses", "list"])
                #expect(list.status == 0, "\(list.stderr)")
                #expect(((list.json?["items"] as? [Any])?.count ?? 0) > 0)

                let wrong = CLIRunner(server: server.baseURL, dataDirectory: root.appendingPathComponent("wrong"))
                let refused = try await wrong.run(
                    ["--ca-cert", certificate, "--pin", unrelatedPin(), "login", "--email", Demo.studentEmail, "--password-stdin"],
                    input: Demo.studentPassword + "\n")
                #expect(refused.status == 5, "\(refused.stderr)")
                #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
                #expect(refused.stderr.contains("pin"))

                let unpinnedUntrusted = try await wrong.run(["login", "--email", Demo.studentEmail, "--password-stdin"], input: "x\n")
                #expect(unpinnedUntrusted.status != 0)
            }
        }
    }
}
