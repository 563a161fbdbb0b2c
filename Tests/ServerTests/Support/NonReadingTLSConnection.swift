import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// A TLS connection that negotiates HTTP/1.1, completes its handshake, sends what it is given and
/// then never reads again: with its small receive buffer, the server's writes soon stall.
struct NonReadingTLSConnection {
    let channel: any Channel
    private let received: ByteCounter

    /// Connects to 127.0.0.1:`port` (certificate not verified: the test is about the connection)
    /// and returns once the handshake has completed, so the server has accepted the connection.
    static func open(port: Int, receiveBuffer: Int32 = 4096, timeout: Duration = .seconds(10)) async throws
        -> NonReadingTLSConnection
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        tls.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: tls)
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let handshake = loop.makePromise(of: Void.self)
        let received = ByteCounter()
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(completed: handshake))
                    try channel.pipeline.syncOperations.addHandler(received)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let (seconds, attoseconds) = timeout.components
        let timer = loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
            handshake.fail(HelperFailure(description: "no TLS handshake within \(timeout)"))
        }
        defer { timer.cancel() }
        do {
            try await handshake.futureResult.get()
            try await channel.setOption(ChannelOptions.autoRead, value: false).get()
        } catch {
            try? await channel.close().get()
            throw error
        }
        return NonReadingTLSConnection(channel: channel, received: received)
    }

    /// Starts reading again and reads until the server closes or `timeout` passes.
    /// - Returns: The decrypted bytes received since the handshake, and whether the server closed.
    func drain(timeout: Duration) async -> (bytes: Int, closed: Bool) {
        _ = try? await channel.setOption(ChannelOptions.autoRead, value: true).get()
        channel.read()
        let deadline = ContinuousClock.now + timeout
        while channel.isActive, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return (received.count.load(ordering: .relaxed), !channel.isActive)
    }

    /// Sends `text` (encrypted) and flushes it.
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    func close() async {
        try? await channel.close().get()
    }

    /// Counts the decrypted bytes that arrive.
    private final class ByteCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let count = Atomic<Int>(0)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            count.add(unwrapInboundIn(data).readableBytes, ordering: .relaxed)
        }
    }

    /// Succeeds its promise when the TLS handshake completes.
    private final class HandshakeWatcher: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        let completed: EventLoopPromise<Void>

        init(completed: EventLoopPromise<Void>) {
            self.completed = completed
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted? = event as? TLSUserEvent { completed.succeed() }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            completed.fail(error)
            context.fireErrorCaught(error)
        }
    }
}
