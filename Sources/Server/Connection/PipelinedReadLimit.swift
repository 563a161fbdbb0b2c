import NIOCore
import NIOHTTPTypes

/// Stops reading from an HTTP/1.1 connection while it holds `limit` requests that were received
/// whole and not yet answered.
///
/// Hummingbird answers pipelined requests one after the other and reads ahead into its channel's
/// buffer meanwhile; a client that sends many requests and never reads the answers would have
/// them all parsed and queued. With this handler (after the HTTP codec, where parts are requests
/// and responses) the socket is not read again until an answer ends, so what one connection
/// queues is bounded by `limit` requests plus what a single read of the socket holds.
///
/// The limit is at least two so that a request being answered at length (an event stream) still
/// lets the connection read: its client's half-close must be seen at once. A request whose body
/// is still arriving never counts, so its body keeps being read.
final class PipelinedReadLimit: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The default number of whole requests waiting for their answer before reads stop.
    static let defaultLimit = 4

    private let limit: Int
    private var received = 0
    private var answered = 0
    private var readHeld = false

    /// - Parameter limit: How many whole, unanswered requests stop reading (at least two).
    init(limit: Int = PipelinedReadLimit.defaultLimit) {
        self.limit = max(2, limit)
    }

    /// Whole requests received and not yet answered; below zero while an answer has ended
    /// before its request did (a refusal sent before the body arrived).
    private var unanswered: Int { received - answered }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { received += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answered += 1
            if readHeld, unanswered < limit {
                readHeld = false
                context.read()
            }
        }
        context.write(data, promise: promise)
    }

    func read(context: ChannelHandlerContext) {
        if unanswered >= limit {
            readHeld = true
        } else {
            context.read()
        }
    }
}
