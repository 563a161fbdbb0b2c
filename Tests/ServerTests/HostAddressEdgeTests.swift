import Testing

@testable import EduGoServer

/// The edges of the loopback check (issue #46, item 4): the 16 bytes copied out of `inet_pton`,
/// the first and last loopback addresses, their neighbours, and names that only look like one.
@Suite struct HostAddressEdgeTests {
    @Test("loopback addresses in every spelling are loopback", arguments: [
        "localhost", "LOCALHOST", "127.0.0.1", "127.0.0.0", "127.255.255.255", "::1", "[::1]",
        "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::ffff:127.0.0.1", "[::ffff:127.255.255.255]",
    ])
    func loopback(_ host: String) {
        #expect(HostAddress.isLoopback(host))
    }

    @Test("neighbours of loopback, names that look like one and text that is no address are not", arguments: [
        "", "[", "[]", "126.255.255.255", "128.0.0.1", "::", "::2", "1::1", "::ffff:128.0.0.1", "::ffff:126.0.0.1",
        "::127.0.0.1", "127.evil.example", "127.0.0.1.", "localhost.", "１２７.0.0.1", "日本語 🎓",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ])
    func notLoopback(_ host: String) {
        #expect(!HostAddress.isLoopback(host))
    }
}
