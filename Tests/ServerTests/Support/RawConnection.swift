import Foundation

#if canImport(Glibc)
import Glibc
private let systemSend = Glibc.send
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemSend = Darwin.send
private let noSignal: Int32 = 0
#endif

/// A plain TCP connection to 127.0.0.1 for what URLSession will not do: half-sent requests,
/// arbitrary `Host` headers. Every read is bounded by a receive timeout.
final class RawConnection {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    /// - Parameter receiveBuffer: When set, the socket's `SO_RCVBUF` (set before connecting, so
    ///   the window it advertises stays small): a client that does not read then fills up fast.
    init(port: Int, receiveBuffer: Int? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw HelperFailure(description: "socket() failed: \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw HelperFailure(description: "connect() failed: \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress, $0.count, noSignal) }
        guard sent == bytes.count else { throw HelperFailure(description: "send() failed: \(errno)") }
    }

    /// Reads until the peer closes or `timeout` passes, on a dispatch thread (as ``arrivals(timeout:)``):
    /// a test that waits seconds for a close must not hold one of the two cooperative threads
    /// that every in-process server and test of the run shares.
    /// - Returns: What arrived, and whether the peer closed the connection within the time.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        let descriptor = self.descriptor
        return await Self.offloaded { Self.blockingReadUntilClosed(descriptor: descriptor, timeout: timeout) }
    }

    /// Runs a blocking read on a dispatch thread and resumes the caller with its result.
    private static func offloaded<T: Sendable>(_ read: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: read()) }
        }
    }

    private static func blockingReadUntilClosed(descriptor: Int32, timeout: Duration) -> (text: String, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var slice = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            if count > 0 {
                received += buffer[0..<count]
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (String(decoding: received, as: UTF8.self), true)  // reset: closed too
            }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// Everything that arrives until the peer closes or `timeout` passes, piece by piece with the
    /// time each piece arrived. The blocking reads run on a dispatch thread, so an in-process
    /// server keeps the cooperative threads it needs to answer meanwhile.
    func arrivals(timeout: Duration) async -> (pieces: [(at: ContinuousClock.Instant, bytes: [UInt8])], closed: Bool) {
        let descriptor = self.descriptor
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.blockingArrivals(descriptor: descriptor, timeout: timeout))
            }
        }
        return (result.pieces.map { ($0.at, $0.bytes) }, result.closed)
    }

    private struct Piece: Sendable {
        var at: ContinuousClock.Instant
        var bytes: [UInt8]
    }

    private static func blockingArrivals(descriptor: Int32, timeout: Duration) -> (pieces: [Piece], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var pieces: [Piece] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var slice = timeval(tv_sec: 0, tv_usec: 50_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (pieces, true) }
            if count > 0 {
                pieces.append(Piece(at: ContinuousClock.now, bytes: Array(buffer[0..<count])))
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (pieces, true)
            }
        }
        return (pieces, false)
    }

    /// Sends a whole request and reads the response head's status code (bounded).
    func exchange(_ request: String, timeout: Duration = .seconds(10)) async throws -> Int? {
        try send(request)
        return await status(within: timeout)
    }

    /// Reads the status code of the next response head, or nil when none arrives within `timeout`
    /// (on a dispatch thread, as ``readUntilClosed(timeout:)``).
    func status(within timeout: Duration) async -> Int? {
        let descriptor = self.descriptor
        return await Self.offloaded { Self.blockingStatus(descriptor: descriptor, within: timeout) }
    }

    private static func blockingStatus(descriptor: Int32, within timeout: Duration) -> Int? {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var slice = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[0..<count] }
            if count == 0 { break }
            let text = String(decoding: received, as: UTF8.self)
            if let line = text.split(separator: "\r\n").first, text.contains("\r\n") {
                let parts = line.split(separator: " ")
                if parts.count >= 2 { return Int(parts[1]) }
            }
        }
        return nil
    }
}
