import Hummingbird
import NIOCore
import NIOEmbedded
import NIOHTTP2
import NIOHTTPTypes
import Testing

@testable import EduGoServer

/// The connection guards on an `EmbeddedChannel`, whose clock the test moves: no socket, no waiting.
@Suite struct ConnectionGuardTests {
    /// Stands for the socket: holds every write until the test lets it complete.
    final class StalledSocket: ChannelOutboundHandler {
        typealias OutboundIn = NIOAny
        var held: [EventLoopPromise<Void>] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if let promise { held.append(promise) }
        }

        /// Completes the oldest held write, as a socket that took its bytes.
        func completeOne() {
            if !held.isEmpty { held.removeFirst().succeed() }
        }

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            for write in held { write.fail(ChannelError.ioOnClosedChannel) }
            held = []
            context.close(mode: mode, promise: promise)
        }
    }

    /// Counts the reads that reach the socket.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = NIOAny
        var reads = 0

        func read(context: ChannelHandlerContext) {
            reads += 1
        }
    }

    func connectedChannel(_ handlers: [any ChannelHandler]) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers(handlers)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Expects the channel to be open or closed. The expectation sees two `Bool`s only: one on
    /// the channel itself would describe its pipeline when it fails, and NIO's pipeline
    /// description traps on these handlers (it crashed the run).
    func expect(
        _ channel: EmbeddedChannel, open expected: Bool, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let open = channel.isActive
        #expect(open == expected, comment, sourceLocation: sourceLocation)
    }

    func write(_ channel: EmbeddedChannel) {
        channel.writeAndFlush(channel.allocator.buffer(string: "answer"), promise: nil)
    }

    // MARK: Write progress

    @Test("a write that makes no progress for the timeout closes the connection, not before")
    func stalledWriteCloses() throws {
        let socket = StalledSocket()
        let channel = try connectedChannel([socket, WriteProgressDeadline(timeout: .seconds(2))])
        write(channel)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1900))
        expect(channel, open: true)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        expect(channel, open: false)
    }

    @Test("writes that keep completing, however slowly, keep the connection open past the timeout")
    func progressKeepsTheConnection() throws {
        let socket = StalledSocket()
        let channel = try connectedChannel([socket, WriteProgressDeadline(timeout: .seconds(2))])
        for _ in 0..<10 {
            write(channel)
            write(channel)
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(1500))
            socket.completeOne()
        }
        expect(channel, open: true)
        _ = try? channel.finish()
    }

    @Test("becoming writable again is progress: a big write draining slowly is not cut off")
    func writabilityIsProgress() throws {
        let socket = StalledSocket()
        let channel = try connectedChannel([socket, WriteProgressDeadline(timeout: .seconds(2))])
        write(channel)
        for _ in 0..<5 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(1500))
            channel.isWritable = false
            channel.pipeline.fireChannelWritabilityChanged()
            channel.isWritable = true
            channel.pipeline.fireChannelWritabilityChanged()
        }
        expect(channel, open: true)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        expect(channel, open: false)
    }

    @Test("a connection with nothing to write is left alone, and a write stalled after a long idle gets its whole timeout")
    func idleIsNotAStall() throws {
        let socket = StalledSocket()
        let channel = try connectedChannel([socket, WriteProgressDeadline(timeout: .seconds(2))])
        write(channel)
        socket.completeOne()
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        expect(channel, open: true)

        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1900))
        write(channel)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1900))
        expect(channel, open: true, "closed a write stalled for less than the timeout")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        expect(channel, open: false)
    }

    // MARK: Pipelined reads

    static let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/openapi.yaml")

    func receiveRequest(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(HTTPRequestPart.head(Self.request))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    func answer(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test("reads stop while four whole requests wait for their answers, and resume when one is answered")
    func readsStopAtTheLimit() throws {
        let counter = ReadCounter()
        let channel = try connectedChannel([counter, PipelinedReadLimit()])
        for _ in 0..<3 { try receiveRequest(channel) }
        var reads = counter.reads
        channel.read()
        #expect(counter.reads == reads + 1, "three waiting requests still read")

        try receiveRequest(channel)
        reads = counter.reads
        channel.read()
        #expect(counter.reads == reads, "a fourth waiting request stops reading")

        try answer(channel)
        #expect(counter.reads == reads + 1, "an answer lets the held read through")
        _ = try? channel.finish()
    }

    @Test("a request being answered at length, or whose body is still arriving, or answered before its body ended, never stops reads")
    func longAnswersAndBodiesKeepReading() throws {
        let counter = ReadCounter()
        let channel = try connectedChannel([counter, PipelinedReadLimit()])
        // An event stream: one whole request, its answer never ending
        try receiveRequest(channel)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        var reads = counter.reads
        channel.read()
        #expect(counter.reads == reads + 1)
        try channel.writeOutbound(HTTPResponsePart.end(nil))

        // Twenty refusals sent before their bodies arrived: none leaves a request counted
        for _ in 0..<20 {
            try channel.writeInbound(HTTPRequestPart.head(Self.request))
            try answer(channel)
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        reads = counter.reads
        channel.read()
        #expect(counter.reads == reads + 1)
        _ = try? channel.finish()
    }

    // MARK: GOAWAY

    @Test("an HTTP/2 connection is closed one grace period after the server's first GOAWAY, whatever the client does")
    func goAwayStartsTheGracePeriod() throws {
        let channel = try connectedChannel([GoAwayGraceDeadline(grace: .seconds(2))])
        try channel.writeOutbound(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: 1), ack: false)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        expect(channel, open: true, "only a GOAWAY starts the grace period")

        try channel.writeOutbound(
            HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: .noError, opaqueData: nil)))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1900))
        expect(channel, open: true)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        expect(channel, open: false)
    }
}
