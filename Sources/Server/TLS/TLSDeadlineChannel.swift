import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A TLS server channel (HTTP/1.1 or HTTP/2 by ALPN) with ``TLSConnectionDeadlines`` placed
/// right after its TLS handler.
struct TLSDeadlineChannel<Base: HTTPChannelHandler>: HTTPChannelHandler {
    typealias Value = Base.Value

    let base: Base
    let limits: TLSConnectionDeadlines.Limits

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // The base adds its TLS handler synchronously (setup runs on the channel's event loop).
        let value = base.setup(channel: channel, logger: logger)
        do {
            let operations = channel.pipeline.syncOperations
            let tls = try operations.handler(type: NIOSSLServerHandler.self)
            try operations.addHandler(TLSConnectionDeadlines(limits: limits), position: .after(tls))
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return value
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
