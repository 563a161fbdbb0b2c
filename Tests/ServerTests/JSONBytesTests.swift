import Foundation
import Testing

@testable import EduGoServer

/// `JSONBytes.string(_:)` copies the runs between escapes out of the string's UTF-8 storage
/// through rebased buffer slices (issue 46 item 4): every run lies inside that storage, so the text
/// is `APICoding`'s spelling of the string, byte for byte, at every edge.
@Suite(.timeLimit(.minutes(1))) struct JSONBytesTests {
    /// The JSON text of `[string]` written by hand, starting from a buffer of `capacity` bytes.
    static func written(_ string: String, capacity: Int = 4096) -> String {
        var json = JSONBytes(capacity: capacity)
        json.beginArray()
        json.string(string)
        json.endArray()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func encoded(_ string: String) throws -> String {
        String(decoding: try APICoding.encode([string]), as: UTF8.self)
    }

    @Test("edge strings are spelled as the encoder spells them", arguments: [
        "", "a", "\"", "\\", "\u{0}", "\u{1F}", "\n", "a\"", "\"a", "\"\"", "\\\\", "a\u{1}b", "\u{7F}",
        "é", "🎓", "日本語", "é\"", "\"🎓", "Matemáticas \"básicas\"\n",
    ])
    func edgeStrings(_ string: String) throws {
        #expect(Self.written(string) == (try Self.encoded(string)))
    }

    @Test("a string of exactly the buffer's capacity, and of one byte more, is written whole")
    func capacityAndOneMore() throws {
        // `["` + text + `"]` is 4 bytes around the text.
        for textLength in [4096 - 4, 4096 - 3, 4096 - 4 - 1] {
            let plain = String(repeating: "x", count: textLength)
            #expect(Self.written(plain, capacity: 4096) == (try Self.encoded(plain)), "\(textLength)")
            // The same length ending in an escape (two bytes written for one) and in a non-ASCII character.
            let escaped = String(repeating: "x", count: textLength - 1) + "\""
            #expect(Self.written(escaped, capacity: 4096) == (try Self.encoded(escaped)), "\(textLength)")
            let nonASCII = String(repeating: "x", count: textLength - 2) + "é"
            #expect(Self.written(nonASCII, capacity: 4096) == (try Self.encoded(nonASCII)), "\(textLength)")
        }
        #expect(Self.written("ab", capacity: 0) == (try Self.encoded("ab")))
    }

    @Test("a string bridged from NSString (not native UTF-8) is written as its native copy is")
    func bridgedString() throws {
        for text in ["日本語 \"🎓\"", "plain", ""] {
            let bridged = NSString(string: text) as String
            #expect(Self.written(bridged) == (try Self.encoded(text)))
        }
    }
}
