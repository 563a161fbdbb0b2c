import HummingbirdCore
import Logging
import NIOCore

/// A server channel (plain, TLS, HTTP/1.1 or HTTP/2) with a ``WriteProgressDeadline`` placed
/// first in its pipeline, next to the socket.
struct WriteProgressChannel<Base: HTTPChannelHandler>: HTTPChannelHandler {
    typealias Value = Base.Value

    let base: Base
    /// How long the outbound side may make no progress while it has something to write; `nil` never times out.
    let timeout: Duration?

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Added before the base's handlers, which go after it: the deadline stays next to the
        // socket (below TLS), so it sees the bytes the socket is asked to write.
        if let timeout {
            do {
                try channel.pipeline.syncOperations.addHandler(WriteProgressDeadline(timeout: .nanoseconds(timeout.nanoseconds)))
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
