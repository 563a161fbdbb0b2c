import NIOCore

/// Closes a connection whose outbound side makes no progress for a timeout while it has
/// something to write.
///
/// Placed first in the connection's pipeline (next to the socket: below TLS, so it sees the
/// bytes that go on the wire), it counts the writes handed to the socket that have not completed.
/// While one is pending, progress is a write completing or the channel becoming writable again
/// (its pending bytes fell under the low water mark); when neither happens for `timeout`, the
/// connection is closed. A connection with nothing to write is left to the HTTP idle timeout.
///
/// Without it a client that stops reading holds its connection for ever: the response writer
/// suspends on back-pressure, and Hummingbird's idle timer is re-armed only when a response
/// ends, so a connection slot (`--max-connections`) stays taken while the server waits.
///
/// Not NIO's `IdleStateHandler(writeTimeout:)`: that one measures from the last completed write
/// whether or not anything was pending since, so on a connection that sat idle for most of a
/// timeout it would close a write stalled for a moment only. This handler starts the clock when
/// something becomes pending, and is otherwise the same pattern (one scheduled check, re-armed
/// from the time of the last progress).
final class WriteProgressDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private let timeout: TimeAmount
    private var pendingWrites = 0
    private var lastProgress: NIODeadline = .distantPast
    private var check: Scheduled<Void>?

    /// - Parameter timeout: How long the outbound side may make no progress while it has a pending write.
    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let completion = promise ?? context.eventLoop.makePromise()
        if pendingWrites == 0 {
            lastProgress = context.eventLoop.now
            scheduleCheck(context: context, at: lastProgress + timeout)
        }
        pendingWrites += 1
        completion.futureResult.hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            self.lastProgress = context.eventLoop.now
        }
        context.write(data, promise: completion)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { lastProgress = context.eventLoop.now }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelCheck()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelCheck()
    }

    private func scheduleCheck(context: ChannelHandlerContext, at deadline: NIODeadline) {
        guard check == nil else { return }
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.check = nil
            self.checkProgress(context: context)
        }
    }

    private func checkProgress(context: ChannelHandlerContext) {
        guard pendingWrites > 0, context.channel.isActive else { return }
        let stalledUntil = lastProgress + timeout
        if context.eventLoop.now >= stalledUntil {
            context.close(promise: nil)
        } else {
            scheduleCheck(context: context, at: stalledUntil)
        }
    }

    private func cancelCheck() {
        check?.cancel()
        check = nil
    }
}
