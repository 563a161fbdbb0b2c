import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

/// A TCP forwarder on a port of its own in front of a server on 127.0.0.1: what Toxiproxy,
/// mitmproxy or `ssh -L` do, so the server sees a client whose `Host` names the forwarder's port.
///
/// Bytes are copied both ways unchanged on plain threads (blocking sockets); ``stop()`` closes
/// the listener, and each forwarded connection ends when either side closes.
final class LoopbackForwarder: Sendable {
    /// The port clients connect to.
    let port: Int
    private let listener: Int32
    private let stopped = Mutex(false)

    /// Listens on 127.0.0.1 on a free port and starts accepting.
    init(to upstreamPort: Int) throws {
        let listener = socket(AF_INET, streamSocket, 0)
        guard listener >= 0 else { throw HelperFailure(description: "socket() failed: \(errno)") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw HelperFailure(description: "bind/listen failed: \(errno)")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { Self.acceptLoop(listener: listener, upstreamPort: upstreamPort) }
    }

    deinit { stop() }

    /// Stops accepting (connections already forwarded run until a side closes).
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func acceptLoop(listener: Int32, upstreamPort: Int) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let upstream = socket(AF_INET, streamSocket, 0)
            var address = loopback(port: UInt16(upstreamPort))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard upstream >= 0, connected else {
                close(client)
                if upstream >= 0 { close(upstream) }
                continue
            }
            let pair = ForwardedPair(client: client, upstream: upstream)
            Thread.detachNewThread { pair.pump(from: client, to: upstream) }
            Thread.detachNewThread { pair.pump(from: upstream, to: client) }
        }
    }
}

/// One forwarded connection: two descriptors, closed once both directions have ended.
private final class ForwardedPair: Sendable {
    private let client: Int32
    private let upstream: Int32
    private let finished = Mutex(0)

    init(client: Int32, upstream: Int32) {
        self.client = client
        self.upstream = upstream
    }

    /// Copies bytes until `source` closes or fails, then half-closes `destination`.
    func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let sent = buffer[offset..<count].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, noSignal) }
                guard sent > 0 else { break copying }
                offset += sent
            }
        }
        shutdown(destination, Int32(SHUT_WR))
        shutdown(source, Int32(SHUT_RD))
        let both = finished.withLock { count in
            count += 1
            return count == 2
        }
        if both {
            close(client)
            close(upstream)
        }
    }
}
