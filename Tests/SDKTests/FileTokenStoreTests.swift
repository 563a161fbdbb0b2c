import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) final class FileTokenStoreTests {
    /// A fresh directory (not yet created) under a unique temporary parent, removed after the test.
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("edugo-sdk-tests-\(UUID().uuidString)").appendingPathComponent("tokens")

    deinit {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
    var store: FileTokenStore { FileTokenStore(directory: directory) }
    let tokens = SessionTokens(
        accessToken: "access-1", refreshToken: "refresh-1", accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900),
        userID: "user-1", tenantID: "demo")

    func permissions(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("saved tokens load back unchanged")
    func roundTrip() async throws {
        try await store.save(tokens, for: Fixture.tokenKey)
        #expect(try await store.load(Fixture.tokenKey) == tokens)
        // A new store over the same directory (the next launch) sees them too.
        #expect(try await FileTokenStore(directory: directory).load(Fixture.tokenKey) == tokens)
    }

    @Test("tokens of empty, one-character, non-ASCII and 64 KiB strings are written whole and load back unchanged", arguments: [
        "", "x", "jwt.日本語.🎓", String(repeating: "a", count: 64 * 1024),
    ])
    func edgeTokens(_ token: String) async throws {
        // The write(2) that stores them copies exactly the encoded bytes out of a buffer (issue #46, item 4).
        let edge = SessionTokens(
            accessToken: token, refreshToken: token, accessTokenExpiresAt: tokens.accessTokenExpiresAt, userID: "user-1", tenantID: "demo")
        try await store.save(edge, for: Fixture.tokenKey)
        #expect(try await FileTokenStore(directory: directory).load(Fixture.tokenKey) == edge)
        #expect(try files().count == 1)
    }

    @Test("the token file is readable only by its owner (0600) in a private directory (0700)")
    func permissions() async throws {
        try await store.save(tokens, for: Fixture.tokenKey)
        #expect(try permissions(directory) == 0o700)
        let file = try #require(try files().first)
        #expect(try permissions(directory.appendingPathComponent(file)) == 0o600)
    }

    @Test("replacing tokens keeps the file private and leaves no temporary files behind")
    func replace() async throws {
        try await store.save(tokens, for: Fixture.tokenKey)
        var rotated = tokens
        rotated.refreshToken = "refresh-2"
        try await store.save(rotated, for: Fixture.tokenKey)
        #expect(try await store.load(Fixture.tokenKey) == rotated)
        #expect(try files().count == 1)
        let file = try #require(try files().first)
        #expect(try permissions(directory.appendingPathComponent(file)) == 0o600)
    }

    @Test("each tenant and account has its own file")
    func onePerKey() async throws {
        let keys = [
            TokenStoreKey(tenantID: "demo"), TokenStoreKey(tenantID: "demo", account: "second"),
            TokenStoreKey(tenantID: "escuela"),
        ]
        for (index, key) in keys.enumerated() {
            var own = tokens
            own.userID = "user-\(index)"
            try await store.save(own, for: key)
        }
        #expect(try files().count == 3)
        for (index, key) in keys.enumerated() {
            #expect(try await store.load(key)?.userID == "user-\(index)")
        }
    }

    @Test(
        "keys that differ only in punctuation never share a file",
        arguments: [
            (TokenStoreKey(tenantID: "a-b", account: "c"), TokenStoreKey(tenantID: "a", account: "b-c")),
            (TokenStoreKey(tenantID: "a b"), TokenStoreKey(tenantID: "a_b")),
            (TokenStoreKey(tenantID: "../x"), TokenStoreKey(tenantID: "__x")),
        ])
    func distinctFiles(first: TokenStoreKey, second: TokenStoreKey) async throws {
        var other = tokens
        other.userID = "someone-else"
        try await store.save(tokens, for: first)
        try await store.save(other, for: second)
        #expect(try await store.load(first) == tokens)
        #expect(try await store.load(second) == other)
    }

    @Test("a hostile key cannot write outside the directory")
    func hostileKey() async throws {
        try await store.save(tokens, for: TokenStoreKey(tenantID: "../../escape", account: "/etc/passwd"))
        #expect(try files().count == 1)
        let file = try #require(try files().first)
        #expect(file.hasPrefix("session-"))
    }

    @Test("removing a key deletes its file and only its file")
    func remove() async throws {
        let other = TokenStoreKey(tenantID: "escuela")
        try await store.save(tokens, for: Fixture.tokenKey)
        try await store.save(tokens, for: other)
        try await store.remove(Fixture.tokenKey)
        #expect(try await store.load(Fixture.tokenKey) == nil)
        #expect(try await store.load(other) == tokens)
        #expect(try files().count == 1)
    }

    @Test("loading or removing a key that was never saved is not an error")
    func missingKey() async throws {
        #expect(try await store.load(Fixture.tokenKey) == nil)
        try await store.remove(Fixture.tokenKey)
    }
}
