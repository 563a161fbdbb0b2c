import EduGoServerStore
import Foundation
import Testing

@testable import EduGoServer

/// The edges of a sealed cursor (issue #46, item 4): payloads either side of the keystream's
/// 32-byte blocks, the longest sealed cursor accepted and one character past it, and inputs too
/// short to hold a tag.
@Suite struct CursorSealEdgeTests {
    let seal = CursorSeal(secret: Data("a test secret".utf8))

    /// A cursor whose payload is `30 + user + role` bytes (`tenant` is one byte).
    static func cursor(user: Int, role: Int = 0, text: String = "u") -> ChangeCursor {
        ChangeCursor(
            tenant: "t", user: String(repeating: text, count: user), role: String(repeating: "r", count: role),
            timeline: String(repeating: "ab", count: 16), seq: 9)
    }

    @Test("payloads of 31 to 97 bytes (either side of the keystream's 32-byte blocks) open to the cursor sealed", arguments: [1, 2, 3, 33, 34, 35, 65, 66, 67])
    func acrossKeystreamBlocks(_ userLength: Int) throws {
        let cursor = Self.cursor(user: userLength)
        let sealed = seal.seal(cursor)
        #expect(seal.open(sealed) == cursor)
        // One spelling per position.
        #expect(seal.seal(cursor) == sealed)
    }

    @Test("the sealed spelling is the format's, byte for byte: a cursor sealed by an earlier build still opens")
    func sealedSpellingIsStable() {
        // Computed outside Swift (Python's hmac and hashlib) from the format CursorSeal documents:
        // a 16-byte HMAC tag, then the payload XOR HMAC-SHA256 blocks over the tag and a big-endian
        // counter (this 70-byte payload takes three blocks).
        let golden = "60ybJYnp-4NsOh0bYGVoWVbBUf1NxkDnmLLq3Y4IwIH2GwGUDZ6zNuHOyne-Lx0_Zl-WClEd7vDh3OvYkoKFKgurMMHFu2Xxxdg44N0F5o2dGTMitdM"
        let cursor = Self.cursor(user: 40)
        #expect(seal.seal(cursor) == golden)
        #expect(seal.open(golden) == cursor)
    }

    @Test("a non-ASCII cursor round-trips")
    func nonASCII() {
        let cursor = Self.cursor(user: 3, text: "日本語 🎓")
        #expect(seal.open(seal.seal(cursor)) == cursor)
    }

    @Test("a sealed cursor of exactly 1,024 characters opens; one of 1,026 is refused")
    func longestAccepted() throws {
        // 16 tag bytes + a payload of 752 bytes = 768 bytes = 1,024 base64url characters.
        let longest = Self.cursor(user: 255, role: 213)
        let sealed = seal.seal(ChangeCursor(
            tenant: String(repeating: "t", count: 255), user: longest.user, role: longest.role,
            timeline: longest.timeline, seq: longest.seq))
        #expect(sealed.utf8.count == CursorSeal.maxSealedLength)
        #expect(seal.open(sealed) != nil)
        let past = seal.seal(ChangeCursor(
            tenant: String(repeating: "t", count: 255), user: longest.user, role: longest.role + "r",
            timeline: longest.timeline, seq: longest.seq))
        #expect(past.utf8.count == CursorSeal.maxSealedLength + 2)
        #expect(seal.open(past) == nil)
    }

    @Test("empty, one character, a bare tag and a tag of 16 bytes plus one are no cursor")
    func tooShort() {
        let tagOnly = Data(repeating: 7, count: CursorSeal.tagLength)
        #expect(seal.open("") == nil)
        #expect(seal.open("A") == nil)
        #expect(seal.open(tagOnly.base64URLEncodedString()) == nil)
        #expect(seal.open((tagOnly + Data([1])).base64URLEncodedString()) == nil)
    }

    @Test("every single-byte change of a sealed cursor, and another server's seal, are refused")
    func tampered() throws {
        let cursor = Self.cursor(user: 40)
        let sealed = try #require(Data(base64URLEncoded: seal.seal(cursor)))
        for index in sealed.indices {
            var edited = sealed
            edited[index] ^= 0x01
            #expect(seal.open(edited.base64URLEncodedString()) == nil, "byte \(index)")
        }
        #expect(CursorSeal(secret: Data("another secret".utf8)).open(seal.seal(cursor)) == nil)
    }
}
