import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A media file opened for a download, before the response is sent.
///
/// A lesson's file is removed once a replacement or a deletion committed. A download that opened
/// its file first still reads every byte of it (an unlinked file lives as long as a descriptor
/// does); one that only looked its name up would find it gone after its `200` head was sent.
/// The descriptor is closed when the last reference goes, so a response whose body is never
/// written (a `HEAD`, a connection closed before the head) leaks nothing.
final class OpenMediaFile: Sendable {
    private let descriptor: CInt

    private init(descriptor: CInt) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Opens `path` for reading on the thread pool; `nil` when it does not exist (any more).
    static func open(path: String) async throws -> OpenMediaFile? {
        let descriptor = try await NIOThreadPool.singleton.runIfActive { () throws -> CInt in
            let descriptor = Self.systemOpen(path)
            guard descriptor >= 0 else {
                if errno == ENOENT { return -1 }
                throw IOError(errnoCode: errno, reason: "open")
            }
            return descriptor
        }
        return descriptor >= 0 ? OpenMediaFile(descriptor: descriptor) : nil
    }

    private static func systemOpen(_ path: String) -> CInt {
        #if canImport(Glibc)
        Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
        Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    /// A response body of `range`'s bytes, read in chunks on the thread pool as the client takes
    /// them, the next chunk read while the current one is written.
    func body(range: ClosedRange<Int>, chunkLength: Int = 256 * 1024) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            var current = try await self.read(at: offset, count: min(chunkLength, range.count))
            while true {
                offset += current.readableBytes
                let (start, remaining) = (offset, range.upperBound - offset + 1)
                async let upcoming = remaining > 0 ? self.read(at: start, count: min(chunkLength, remaining)) : nil
                try await writer.write(current)
                guard let next = try await upcoming else { break }
                current = next
            }
            try await writer.finish(nil)
        }
    }

    /// Up to `count` bytes at `offset`; a file shorter than its record says ends the body with an error.
    private func read(at offset: Int, count: Int) async throws -> ByteBuffer {
        try await NIOThreadPool.singleton.runIfActive { [descriptor] () throws -> ByteBuffer in
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            var failure: CInt = 0
            // Invariant: the buffer has at least count writable bytes, and pread writes at most count.
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                while true {
                    let read = pread(descriptor, bytes.baseAddress, count, off_t(offset))
                    if read >= 0 { return read }
                    if errno != EINTR {
                        failure = errno
                        return 0
                    }
                }
            }
            guard read > 0 else { throw IOError(errnoCode: failure == 0 ? EIO : failure, reason: "pread") }
            return buffer
        }
    }
}
