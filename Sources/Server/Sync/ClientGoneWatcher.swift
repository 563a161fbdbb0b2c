import NIOCore

/// Tells a live stream that its client went away.
///
/// A channel handler, because Hummingbird (2.28) offers no other way to learn it: its server
/// turns on `allowRemoteHalfClosure` for every connection (`Server.swift`), so a client that
/// closes its socket shows up as the end of input, not as a closed channel; and its HTTP/1 loop
/// (`HTTPChannelHandler.handleHTTP`) reads the connection's input only between requests, so that
/// end waits, unread, until the response is done, which for a stream is never. Without this a
/// stream would learn of it only when its next keep-alive write failed. Placed first in the
/// connection's pipeline while a stream is written, it passes every event on unchanged.
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
