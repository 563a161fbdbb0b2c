import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// `RecordID.make(using:)` writes a UUID's 36 characters into a string's uninitialized storage
/// of exactly 36 bytes (issue 46 item 4): 32 hex digits and 4 dashes, whatever the 16 bytes are.
@Suite(.timeLimit(.minutes(1))) struct RecordIDTests {
    /// A generator that answers the same word every time.
    struct Constant: RandomNumberGenerator {
        let word: UInt64
        mutating func next() -> UInt64 { word }
    }

    /// Foundation's spelling of the same 16 bytes, with the version and variant bits set.
    static func reference(_ first: UInt64, _ second: UInt64) -> String {
        var bytes = [UInt8]()
        for word in [first, second] {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    @Test("all-zero and all-one bytes (the lowest and highest digits) fill the 36 characters exactly",
          arguments: [UInt64.min, UInt64.max, 0x0123_4567_89AB_CDEF])
    func extremeBytes(_ word: UInt64) throws {
        var generator = Constant(word: word)
        let id = RecordID.make(using: &generator)
        #expect(id.utf8.count == 36)
        #expect(id == Self.reference(word, word))
        // Version 4, RFC 4122 variant, lowercase ASCII only.
        let uuid = try #require(UUID(uuidString: id))
        #expect(uuid.uuidString.lowercased() == id)
        #expect(Array(id.utf8)[14] == UInt8(ascii: "4"))
        #expect(id.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
    }

    @Test("1,000 seeded ids are each Foundation's spelling of their bytes")
    func seededIDsMatchFoundation() {
        var random = SeededGenerator(seed: 46)
        for _ in 0..<1000 {
            var copy = random
            let expected = Self.reference(copy.next(), copy.next())
            let id = RecordID.make(using: &random)
            #expect(id == expected)
            #expect(id.utf8.count == 36)
        }
    }
}
