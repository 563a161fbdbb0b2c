import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address block such as `10.0.0.0/8` or `::1/128` (a bare address is a block
/// of one).
struct CIDRBlock: Sendable, Equatable {
    let network: [UInt8]
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = address.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        network = address
    }

    /// Whether `address` (textual IPv4 or IPv6) lies in the block.
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address), bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in 0..<bytes.count where remaining > 0 {
            let bitsHere = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bitsHere))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bitsHere
        }
        return true
    }

    /// The address's bytes: 4 for IPv4, 16 for IPv6 (brackets allowed), `nil` for anything else.
    static func bytes(of text: String) -> [UInt8]? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        // Invariant: each copy is exactly the 4 or 16 bytes of an address that inet_pton filled.
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}

extension ServerConfiguration {
    /// Whether `text` is an IPv4/IPv6 address or CIDR block `--trusted-proxy` accepts.
    public static func isValidCIDR(_ text: String) -> Bool {
        CIDRBlock(text) != nil
    }
}
