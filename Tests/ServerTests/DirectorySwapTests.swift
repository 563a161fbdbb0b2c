import Foundation
import Testing

@testable import EduGoServer

/// `DirectorySwap` calls `renameat2` through a pointer looked up by name and cast to its C
/// signature (issue #46, item 4): the exchange must really swap the two folders, names with
/// non-ASCII characters included, and a missing folder must fail cleanly.
@Suite struct DirectorySwapTests {
    func folder(_ url: URL, holding name: String) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(name.utf8).write(to: url.appendingPathComponent("marker"))
    }

    func marker(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent("marker")), as: UTF8.self)
    }

    @Test("installing over an existing folder exchanges the two: the target holds the new one, the new path the old one", arguments: [
        ("export", "export.staging"), ("données 日本語 🎓", "données 日本語 🎓.staging"), ("a", "b"),
    ])
    func exchanges(_ targetName: String, _ newName: String) throws {
        try withTemporaryDirectorySync { root in
            let target = root.appendingPathComponent(targetName)
            let new = root.appendingPathComponent(newName)
            try folder(target, holding: "old")
            try folder(new, holding: "new")
            let replaced = try #require(try DirectorySwap.install(new, at: target))
            #expect(try marker(target) == "new")
            #expect(try marker(replaced) == "old")
            #if os(Linux)
            // renameat2 exchanged them in place: nothing was moved aside.
            #expect(replaced == new)
            #endif
        }
    }

    @Test("installing where nothing is is one rename; a new folder that does not exist is an error and leaves the target")
    func renamesOrFails() throws {
        try withTemporaryDirectorySync { root in
            let target = root.appendingPathComponent("target")
            let new = root.appendingPathComponent("new")
            try folder(new, holding: "new")
            #expect(try DirectorySwap.install(new, at: target) == nil)
            #expect(try marker(target) == "new")
            #expect(!FileManager.default.fileExists(atPath: new.path))
            #expect(throws: DataTransferError.self) { try DirectorySwap.install(root.appendingPathComponent("missing"), at: target) }
            #expect(try marker(target) == "new")
        }
    }
}
