import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A list's `next` token is base64url (no padding) of the JSON array `[timestamp, id]`, written
/// by hand: it must be exactly what Foundation's base64 with the URL alphabet writes, and read
/// back to the same cursor whatever the id holds.
@Suite(.timeLimit(.minutes(1))) struct PageCursorTests {
    /// Foundation's base64, moved to the URL alphabet and stripped of its padding.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func base64URLIsFoundationsInTheURLAlphabet() {
        var random = SeededGenerator(seed: 30)
        for length in 0...70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                let expected = Self.reference(bytes)
                #expect(bytes.base64URLEncodedString() == expected, "\(bytes)")
                #expect(Data(bytes).base64URLEncodedString() == expected, "\(bytes)")
                #expect(Data(base64URLEncoded: expected) == Data(bytes))
            }
        }
        // The two digits base64url has and base64 has not.
        #expect([UInt8]([0xFB, 0xFF, 0xBF]).base64URLEncodedString() == "-_-_")
    }

    @Test(arguments: [
        "c7bb708f-8b09-8105-95aa-0cb0975cfa25", "quote \" and backslash \\", "slash / stays",
        "tab\tnew\nline\u{0}\u{1f}\u{7f}", "Matemáticas", "日本語 🎓", "[\"a\",\"b\"]",
    ])
    func tokenReadsBackToTheCursor(id: String) throws {
        let cursor = PageCursor(timestamp: "2026-11-26 21:26:45.123", id: id)
        #expect(PageCursor(token: cursor.token) == cursor)
        let json = try #require(Data(base64URLEncoded: cursor.token))
        #expect(try JSONDecoder().decode([String].self, from: json) == [cursor.timestamp, id])
        #expect(!cursor.token.contains("=") && !cursor.token.contains("+") && !cursor.token.contains("/"))
    }
}
