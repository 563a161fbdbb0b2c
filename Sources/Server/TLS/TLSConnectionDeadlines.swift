import NIOCore
import NIOHTTP2
import NIOTLS

/// Closes a TLS connection whose handshake does not complete in time, and an HTTP/2 connection
/// one grace period after the server's GOAWAY.
///
/// It sits right after the TLS handler, so it sees the handshake's completion and the protocol
/// ALPN chose. Until a handshake completes no HTTP handler is in the pipeline (with HTTP/2 on,
/// the HTTP handlers are added only once ALPN has chosen), so without this a socket that never
/// sends a ClientHello holds a connection slot forever. Once ALPN has chosen `h2` (the HTTP/2
/// handlers are added while the handshake's event passes on), it places a
/// ``GoAwayGraceDeadline`` after the HTTP/2 handler: a hard bound on top of HTTP/2's own
/// graceful close, so a client that ignores GOAWAY (or never answers its PING) is closed all the
/// same, whether the GOAWAY came from the idle timeout, the connection's age or a shutdown.
final class TLSConnectionDeadlines: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The bounds a TLS connection lives under.
    struct Limits: Sendable, Equatable {
        /// The longest a handshake may take from the connection's start; `nil` never times out.
        var handshake: Duration?
        /// How long an HTTP/2 connection lives after the server's first GOAWAY; `nil` for ever.
        var http2Grace: Duration?
    }

    private let limits: Limits
    private var deadline: Scheduled<Void>?
    private var handshakeCompleted = false

    init(limits: Limits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startHandshakeClock(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startHandshakeClock(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !handshakeCompleted, case .handshakeCompleted(let negotiated)? = event as? TLSUserEvent {
            handshakeCompleted = true
            cancelDeadline()
            context.fireUserInboundEventTriggered(event)
            if negotiated == "h2", let grace = limits.http2Grace { addGoAwayDeadline(grace: grace, context: context) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Places a ``GoAwayGraceDeadline`` right after the HTTP/2 handler the handshake's event just
    /// added. Without one the connection is refused: it would have no bound after GOAWAY.
    private func addGoAwayDeadline(grace: Duration, context: ChannelHandlerContext) {
        do {
            let operations = context.pipeline.syncOperations
            let http2 = try operations.handler(type: NIOHTTP2Handler.self)
            try operations.addHandler(GoAwayGraceDeadline(grace: .nanoseconds(grace.nanoseconds)), position: .after(http2))
        } catch {
            context.close(promise: nil)
        }
    }

    private func startHandshakeClock(context: ChannelHandlerContext) {
        guard !handshakeCompleted, deadline == nil, let timeout = limits.handshake else { return }
        deadline = closeAfter(timeout, context: context)
    }

    private func closeAfter(_ delay: Duration, context: ChannelHandlerContext) -> Scheduled<Void> {
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(delay.nanoseconds)) {
            context.close(promise: nil)
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
