import Hummingbird
import NIOCore

/// Response bodies a fault rule spoils on the way out: delivered slowly in pieces, or cut short.
///
/// Both keep the original `Content-Length`, so a client sees the head of a whole answer and then
/// a body that dribbles in, or stops short when the connection closes.
enum FaultyResponseBody {
    /// `body` in `chunks` pieces of equal size, each sent after `duration / chunks`.
    static func slow(_ body: ResponseBody, chunks: Int, over duration: Duration) -> ResponseBody {
        let length = body.contentLength
        return ResponseBody(contentLength: length) { writer in
            let chunkSize = length.map { max(1, ($0 + chunks - 1) / chunks) }
            try await body.write(SlowBodyWriter(parent: writer, chunkSize: chunkSize, chunks: chunks, pause: duration / chunks))
        }
    }

    /// The first `bytes` of `body`; then the sending side of `channel` closes once those bytes
    /// are out, and the body fails with ``FaultTruncation`` so Hummingbird closes the connection
    /// (the rest is never sent).
    static func truncated(_ body: ResponseBody, after bytes: Int, closing channel: any Channel) -> ResponseBody {
        ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(TruncatingBodyWriter(parent: writer, remaining: bytes, channel: channel))
        }
    }
}

/// Ends a truncated body: the connection closes instead of the body finishing.
struct FaultTruncation: Error {}

/// Re-slices what the handler writes into pieces of `chunkSize` (known from the length, or at the
/// end when the length is unknown) and waits `pause` before each.
private struct SlowBodyWriter: ResponseBodyWriter {
    var parent: any ResponseBodyWriter
    let chunkSize: Int?
    let chunks: Int
    let pause: Duration
    var pending = ByteBuffer()

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        pending.writeBuffer(&buffer)
        guard let chunkSize else { return }
        while pending.readableBytes >= chunkSize, let piece = pending.readSlice(length: chunkSize) {
            try await send(piece)
        }
        pending.discardReadBytes()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        var writer = self
        let size = writer.chunkSize ?? max(1, (writer.pending.readableBytes + writer.chunks - 1) / writer.chunks)
        while writer.pending.readableBytes > 0,
            let piece = writer.pending.readSlice(length: min(size, writer.pending.readableBytes))
        {
            try await writer.send(piece)
        }
        try await writer.parent.finish(trailingHeaders)
    }

    private mutating func send(_ piece: ByteBuffer) async throws {
        try await Task.sleep(for: pause)
        try await parent.write(piece)
    }
}

/// Passes on the first `remaining` bytes, then half-closes the connection (after those bytes
/// are written) and throws ``FaultTruncation`` instead of going on or finishing.
private struct TruncatingBodyWriter: ResponseBodyWriter {
    var parent: any ResponseBodyWriter
    var remaining: Int
    let channel: any Channel

    mutating func write(_ buffer: ByteBuffer) async throws {
        guard buffer.readableBytes > remaining else {
            remaining -= buffer.readableBytes
            try await parent.write(buffer)
            return
        }
        if remaining > 0, let head = buffer.getSlice(at: buffer.readerIndex, length: remaining) {
            try await parent.write(head)
        }
        remaining = 0
        try await cut()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await cut()
    }

    private func cut() async throws -> Never {
        try? await channel.close(mode: .output)
        throw FaultTruncation()
    }
}
