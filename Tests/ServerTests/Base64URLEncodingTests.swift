import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `base64URLEncodedString()` writes into a string's uninitialized storage of exactly
/// `(count * 4 + 2) / 3` bytes (issue 46 item 4): every input length fills that capacity exactly,
/// never past it, and the text is Foundation's base64 in the URL alphabet without padding.
@Suite(.timeLimit(.minutes(1))) struct Base64URLEncodingTests {
    /// Foundation's base64, moved to the URL alphabet and stripped of its padding.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The capacity the encoder reserves for `count` bytes.
    static func capacity(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    @Test("no bytes encode as the empty string (a capacity of zero)")
    func empty() {
        #expect([UInt8]().base64URLEncodedString() == "")
        #expect(Data().base64URLEncodedString() == "")
    }

    @Test("one byte fills a capacity of two digits", arguments: [UInt8(0x00), 0x7F, 0x80, 0xFF])
    func oneByte(_ byte: UInt8) {
        let text = [byte].base64URLEncodedString()
        #expect(text == Self.reference([byte]))
        #expect(text.utf8.count == Self.capacity(1))
    }

    @Test("every length from 0 to 3 × 64 + 2 fills its capacity exactly: whole groups, and one or two bytes past them")
    func everyLengthFillsItsCapacity() {
        var random = SeededGenerator(seed: 46)
        for length in 0...(3 * 64 + 2) {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = bytes.base64URLEncodedString()
            #expect(text == Self.reference(bytes), "length \(length)")
            #expect(text.utf8.count == Self.capacity(length), "length \(length)")
        }
    }

    @Test("the bytes of non-ASCII text encode as Foundation's do, and decode back")
    func nonASCIIText() throws {
        for text in ["Matemáticas", "日本語 🎓", "\u{0}\u{7F}\u{80}\u{FFFF}", "é"] {
            let bytes = Array(text.utf8)
            let encoded = bytes.base64URLEncodedString()
            #expect(encoded == Self.reference(bytes), "\(text)")
            let decoded = try #require(Data(base64URLEncoded: encoded))
            #expect(String(decoding: decoded, as: UTF8.self) == text)
        }
    }

    @Test("a slice of a larger Data (its indices not starting at 0) encodes only its own bytes")
    func dataSlice() {
        let whole = Data((0..<64).map { UInt8($0 * 4 + 1) })
        for range in [5..<5, 5..<6, 5..<8, 5..<9, 63..<64] {
            let slice = whole[range]
            #expect(slice.base64URLEncodedString() == Self.reference(Array(slice)), "\(range)")
        }
    }
}
