import NIOCore
import NIOHTTP2

/// Closes an HTTP/2 connection one grace period after the server's first GOAWAY, whatever the
/// client does.
///
/// Hummingbird's HTTP/2 connection manager sends GOAWAY with a PING when the connection has been
/// idle for `--idle-timeout`, reaches `--max-connection-age` or the server shuts down, and starts
/// its own grace-period timer only when the client acknowledges that PING: a client that never
/// does kept its connection (and a `--max-connections` slot) until some later bound. This handler
/// sits between the HTTP/2 handler and the connection manager, sees the manager's frames go out,
/// and closes the connection when the grace period after the first GOAWAY ends. A client that
/// cooperates is closed by Hummingbird first, as before.
final class GoAwayGraceDeadline: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let grace: TimeAmount
    private var deadline: Scheduled<Void>?

    /// - Parameter grace: How long streams may still run after the first GOAWAY.
    init(grace: TimeAmount) {
        self.grace = grace
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if deadline == nil, case .goAway = unwrapOutboundIn(data).payload {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: grace) {
                context.close(promise: nil)
            }
        }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
