import NIOCore
import NIOHTTP1

/// The `garbage` fault: bytes that are no HTTP answer at all, then the connection closes.
enum GarbageAnswer {
    /// Writes `bytes` on the connection beneath the HTTP/1 encoder (through TLS when the server
    /// has it), then closes the connection. An HTTP/2 stream has no such encoder: it is closed
    /// without the bytes.
    static func send(_ bytes: [UInt8], on channel: any Channel) async {
        let written = channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let encoder = try? channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            return encoder.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)))
        }
        try? await written.get()
        try? await channel.close()
    }
}
