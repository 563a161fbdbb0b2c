import Foundation

/// Runs the real `edugo` binary and captures its exit code and output.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    let server: URL
    let dataDirectory: URL

    func run(_ arguments: [String], input: String? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["--server", server.absoluteString, "--data-dir", dataDirectory.path] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw CLIRunnerError.timedOut(arguments)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
    }

    /// The `edugo` binary built next to the test bundle.
    static func executable() throws -> URL {
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        directories += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        directories.append(root.appendingPathComponent(".build/debug"))
        for directory in directories {
            let candidate = directory.appendingPathComponent("edugo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CLIRunnerError.binaryNotFound(directories.map(\.path))
    }
}

enum CLIRunnerError: Error {
    case binaryNotFound([String])
    case timedOut([String])
}
