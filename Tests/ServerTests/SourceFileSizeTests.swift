import Foundation
import Testing

/// The code stays in small files named after what they hold: none of the package's sources
/// (server, store, SDK, testing kit, tools) passes 300 lines.
@Suite struct SourceFileSizeTests {
    static let limit = 300

    @Test("no Swift source file under Sources/ is longer than 300 lines")
    func everyFileIsSmall() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        var long: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let count = lines.last?.isEmpty == true ? lines.count - 1 : lines.count
            if count > Self.limit { long.append("\(file.path.dropFirst(sources.path.count + 1)): \(count) lines") }
        }
        #expect(long.isEmpty, "split these by concern: \(long.sorted().joined(separator: ", "))")
    }
}
