import Foundation
import Testing

@testable import EduGoServerStore

/// The edges of a cursor's canonical bytes (issue #46, item 4): the sequence's eight big-endian
/// bytes, and the texts' one-byte lengths at 0, 1, 255 and 256 bytes, ASCII or not.
@Suite struct ChangeCursorEdgeTests {
    static let timeline = String(repeating: "0123456789abcdef", count: 2)

    static func cursor(tenant: String = "demo", user: String = "u-1", seq: Int64 = 7, after: String? = nil) -> ChangeCursor {
        ChangeCursor(
            tenant: tenant, user: user, role: "student", timeline: timeline, seq: seq,
            base: after.map { .init(entity: .lesson, after: $0) })
    }

    @Test("the sequence is written as eight big-endian bytes after the format and the timeline", arguments: [
        (Int64(0), [UInt8](repeating: 0, count: 8)),
        (Int64(1), [0, 0, 0, 0, 0, 0, 0, 1]),
        (Int64(256), [0, 0, 0, 0, 0, 0, 1, 0]),
        (Int64(0x0102_0304_0506_0708), [1, 2, 3, 4, 5, 6, 7, 8]),
        (Int64.max, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
    ])
    func sequenceBytes(_ seq: Int64, _ expected: [UInt8]) {
        let cursor = Self.cursor(seq: seq)
        #expect(Array(cursor.payload[17..<25]) == expected)
        #expect(ChangeCursor(payload: cursor.payload) == cursor)
    }

    @Test("a negative sequence is written but never read back as a cursor")
    func negativeSequence() {
        #expect(ChangeCursor(payload: Self.cursor(seq: -1).payload) == nil)
    }

    @Test("texts of 0, 1 and 255 bytes, ASCII or not, read back unchanged", arguments: [
        "", "a", "é", "日本語 🎓", String(repeating: "x", count: 255),
        String(repeating: "ü", count: 127) + "x",  // 255 bytes, two per "ü"
    ])
    func textsWithinALengthByte(_ text: String) {
        let cursor = Self.cursor(tenant: text, user: text)
        #expect(ChangeCursor(payload: cursor.payload) == cursor)
    }

    @Test("a text of 256 bytes is cut to 255, and a cut inside a character leaves no cursor at all")
    func textsPastALengthByte() throws {
        let long = Self.cursor(user: String(repeating: "x", count: 256))
        let read = try #require(ChangeCursor(payload: long.payload))
        #expect(read.user == String(repeating: "x", count: 255))
        #expect(read != long)
        // 254 ASCII bytes and a two-byte "é": the cut leaves half a character.
        let split = Self.cursor(user: String(repeating: "x", count: 254) + "é")
        #expect(ChangeCursor(payload: split.payload) == nil)
    }

    @Test("a base position's id of 0, 1 and 65,535 bytes reads back; 65,536 is cut to 65,535")
    func basePositionLengths() throws {
        for after in ["", "l", String(repeating: "l", count: 65_535), "日本語 🎓"] {
            let cursor = Self.cursor(after: after)
            #expect(ChangeCursor(payload: cursor.payload) == cursor)
        }
        let past = Self.cursor(after: String(repeating: "l", count: 65_536))
        #expect(try #require(ChangeCursor(payload: past.payload)).base?.after.utf8.count == 65_535)
    }

    @Test("empty bytes, one byte and a payload one byte short of its timeline are no cursor")
    func truncatedPayloads() {
        #expect(ChangeCursor(payload: Data()) == nil)
        #expect(ChangeCursor(payload: Data([1])) == nil)
        #expect(ChangeCursor(payload: Self.cursor().payload.prefix(16)) == nil)
    }
}
