import NIOCore
import NIOTLS

/// Closes a TLS connection whose handshake does not complete in time, and an HTTP/2 connection
/// that outlives its lifetime.
///
/// It sits right after the TLS handler, so it sees the handshake's completion and the protocol
/// ALPN chose. Until a handshake completes no HTTP handler is in the pipeline (with HTTP/2 on,
/// the HTTP handlers are added only once ALPN has chosen), so without this a socket that never
/// sends a ClientHello holds a connection slot forever. The HTTP/2 lifetime is a hard bound on
/// top of HTTP/2's own graceful close: a client that ignores GOAWAY (or never answers its PING)
/// is closed all the same.
final class TLSConnectionDeadlines: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The bounds a TLS connection lives under.
    struct Limits: Sendable, Equatable {
        /// The longest a handshake may take from the connection's start; `nil` never times out.
        var handshake: Duration?
        /// The longest an HTTP/2 connection lives after its handshake; `nil` for ever.
        var http2Lifetime: Duration?
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
            if negotiated == "h2", let lifetime = limits.http2Lifetime {
                deadline = closeAfter(lifetime, context: context)
            }
        }
        context.fireUserInboundEventTriggered(event)
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
