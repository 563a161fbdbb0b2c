#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether a host name or address is a loopback one by parsing it, never by its prefix
/// (`127.evil.example` is a name, not a loopback address).
enum HostAddress {
    /// `localhost`, an IPv4 address in 127.0.0.0/8, `::1` (bracketed or not) or an IPv4-mapped
    /// loopback address.
    static func isLoopback(_ host: String) -> Bool {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        // Invariant: copies exactly the 16 bytes of an in6_addr that inet_pton filled.
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}

extension ServerConfiguration {
    /// Whether `host` parses as a loopback address (or is `localhost`): dev mode and the demo
    /// tenants are only allowed there.
    public static func isLoopback(host: String) -> Bool {
        HostAddress.isLoopback(host)
    }
}
