import NIOCore

/// Tells a live stream that its client went away.
///
/// The server allows half-closed connections, so a client that closes its socket shows up as
/// the end of input, not as a closed channel; without this a stream would learn of it only when
/// its next keep-alive write failed. Placed first in the connection's pipeline while a stream is
/// written, it passes every event on unchanged.
final class ClientGoneWatcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    private let gone: @Sendable () -> Void

    init(gone: @escaping @Sendable () -> Void) {
        self.gone = gone
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { gone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone()
        context.fireChannelInactive()
    }
}
