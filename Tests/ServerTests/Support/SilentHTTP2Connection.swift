import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A TLS connection that negotiates `h2`, sends HTTP/2's client preface and an empty SETTINGS
/// frame, and then ignores everything the server sends: GOAWAY, PING and all.
struct SilentHTTP2Connection {
    let channel: any Channel

    /// Connects to 127.0.0.1:`port` (certificate not verified: the test is about the connection).
    static func open(port: Int) async throws -> SilentHTTP2Connection {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        var preface = channel.allocator.buffer(string: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        preface.writeBytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  // SETTINGS, no parameters, stream 0
        try await channel.writeAndFlush(preface).get()
        return SilentHTTP2Connection(channel: channel)
    }

    /// Whether the server closed the connection within `timeout`.
    func isClosed(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !channel.isActive { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return !channel.isActive
    }

    func close() async {
        try? await channel.close().get()
    }
}
