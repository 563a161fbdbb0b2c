import Foundation
import Testing

@testable import EduGoServer

/// `edugo-server --tls-dev` as a developer runs it: the banner's pin, its survival across
/// restarts, `--tls-rotate`, and what is refused.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct TLSProcessTests {
    /// The value after `label` on its banner line.
    func bannerValue(_ label: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(label) }
            .map { String($0.dropFirst(label.count)).split(separator: " ").first.map(String.init) ?? "" }
    }

    @Test("--tls-dev announces https, the certificate path and the pin of the kept certificate; the pin survives a restart")
    func devCertificateBanner() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--tls-dev"])
            #expect(await server.stop())
            let output = server.stdout.value
            #expect(server.baseURL.scheme == "https", "\(output)")
            let certificate = directory.appendingPathComponent("tls/dev-cert.pem").standardizedFileURL.path
            #expect(bannerValue("TLS certificate: ", in: output) == certificate, "\(output)")
            let pin = try #require(bannerValue("TLS pin: ", in: output))
            let kept = try TLSIdentity.development(in: directory.appendingPathComponent("tls"))
            #expect(pin == kept.pin)
            let backup = try #require(bannerValue("TLS backup pin: ", in: output))
            #expect(backup == kept.backupPin)
            #expect(!output.contains("PRIVATE KEY"))

            let again = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--tls-dev"])
            #expect(await again.stop())
            #expect(bannerValue("TLS pin: ", in: again.stdout.value) == pin)

            let rotated = try await ServerProcess.launch(dataDirectory: directory, arguments: ["--tls-dev", "--tls-rotate"])
            #expect(await rotated.stop())
            #expect(bannerValue("TLS pin: ", in: rotated.stdout.value) == backup)
            #expect(bannerValue("TLS previous pin: ", in: rotated.stdout.value) == pin)
        }
    }

    @Test("--tls-dev is refused outside dev mode, half a --tls-cert/--tls-key pair and --tls-rotate alone too")
    func refusals() async throws {
        try await withTemporaryDirectory { directory in
            let noDev = try await ServerProcess.runToExit(["--port", "0", "--data-dir", directory.path, "--tls-dev", "--no-dev"])
            #expect(noDev.status != nil && noDev.status != 0)
            #expect(noDev.output.contains("dev mode only"), "\(noDev.output)")
            let half = try await ServerProcess.runToExit(["--port", "0", "--data-dir", directory.path, "--tls-cert", "/nonexistent"])
            #expect(half.status != nil && half.status != 0)
            #expect(half.output.contains("--tls-key"), "\(half.output)")
            let rotate = try await ServerProcess.runToExit(["--port", "0", "--data-dir", directory.path, "--tls-rotate"])
            #expect(rotate.status != nil && rotate.status != 0)
            #expect(rotate.output.contains("--tls-dev"), "\(rotate.output)")
        }
    }
}
