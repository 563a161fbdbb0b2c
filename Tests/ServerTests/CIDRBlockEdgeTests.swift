import Testing

@testable import EduGoServer

/// The edges of `--trusted-proxy` blocks (issue #46, item 4): the 4 or 16 bytes copied out of
/// `inet_pton`, the shortest and longest spellings, prefixes 0 and the maximum, and text that is
/// no address.
@Suite struct CIDRBlockEdgeTests {
    @Test("an address's bytes are exactly the 4 or 16 inet_pton wrote", arguments: [
        ("0.0.0.0", [UInt8](repeating: 0, count: 4)),
        ("10.1.2.3", [10, 1, 2, 3]),
        ("255.255.255.255", [255, 255, 255, 255]),
        ("::", [UInt8](repeating: 0, count: 16)),
        ("[::1]", [UInt8](repeating: 0, count: 15) + [1]),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", [UInt8](repeating: 0xFF, count: 16)),
        ("::ffff:10.0.0.1", [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1]),
        ("2001:db8::7", [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [7]),
    ])
    func addressBytes(_ text: String, _ expected: [UInt8]) {
        #expect(CIDRBlock.bytes(of: text) == expected)
        #expect(CIDRBlock(text)?.prefixLength == expected.count * 8)
    }

    @Test("text that is no address has no bytes", arguments: [
        "", "1", "1.2.3", "1.2.3.4.5", "256.0.0.1", ":", ":::", "[", "[]", "fe80::1%eth0",
        "１０.0.0.1", "日本語 🎓", "localhost",
    ])
    func notAnAddress(_ text: String) {
        #expect(CIDRBlock.bytes(of: text) == nil)
        #expect(CIDRBlock(text) == nil)
    }

    @Test("prefix lengths 0 and the maximum are blocks; one past the maximum, negative or empty are not")
    func prefixLengths() throws {
        #expect(CIDRBlock("10.0.0.0/0")?.prefixLength == 0)
        #expect(CIDRBlock("10.0.0.0/32")?.prefixLength == 32)
        #expect(CIDRBlock("::/128")?.prefixLength == 128)
        for text in ["10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/8/8", "10.0.0.0/８"] {
            #expect(CIDRBlock(text) == nil, "\(text)")
        }
    }

    @Test("a block holds what its prefix covers, in its own family only")
    func contains() throws {
        let everything = try #require(CIDRBlock("0.0.0.0/0"))
        #expect(everything.contains("255.255.255.255"))
        #expect(!everything.contains("::1"))
        let eight = try #require(CIDRBlock("10.0.0.0/8"))
        #expect(eight.contains("10.255.255.255"))
        #expect(!eight.contains("11.0.0.0"))
        let odd = try #require(CIDRBlock("192.168.0.0/23"))
        #expect(odd.contains("192.168.1.255"))
        #expect(!odd.contains("192.168.2.0"))
        let six = try #require(CIDRBlock("2001:db8::/32"))
        #expect(six.contains("2001:db8:ffff::1"))
        #expect(!six.contains("2001:db9::"))
        #expect(!six.contains("32.1.13.184"))
        let one = try #require(CIDRBlock("::1"))
        #expect(one.contains("[::1]"))
        #expect(!one.contains("::2"))
        #expect(!one.contains(""))
    }
}
