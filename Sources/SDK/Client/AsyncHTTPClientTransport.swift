#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// ``HTTPTransport`` over AsyncHTTPClient (SwiftNIO and swift-nio-ssl): the SDK's default transport
/// on Linux, pinned or not.
///
/// Foundation's `URLSession` on Linux (libcurl) has no server-trust hook, silently re-sends a
/// request (a POST included) on a kept-alive connection the server has closed, and can deadlock
/// when a task is cancelled; AsyncHTTPClient has none of these problems.
///
/// BoringSSL validates the chain (against the system's roots, or the pinning configuration's
/// trust roots) and the host name during the handshake. Then, still before the connection is
/// handed out for a request, the leaf certificate's public key is checked against the host's
/// pins; a mismatch closes the connection and fails the request with
/// ``NetworkError/pinningFailed(host:)``: no request byte was sent. A connection that cannot be
/// established (refused, untrusted) is not retried: the request fails at once.
///
/// One `HTTPClient` per pinned host (so each connection knows which pins it answers to) and one
/// for every other host, all on NIO's shared event loop group; they are shut down when the
/// transport is released.
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let pinnedClients: [String: HTTPClient]
    private let otherClient: HTTPClient
    private let maximumBodySize: Int

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - pinning: Pins per host and trust roots; `.disabled` is ordinary TLS.
    ///   - http2: Offer HTTP/2 by ALPN (HTTP/1.1 is used when the server declines).
    ///   - maximumBodySize: The largest response body accepted.
    ///   - logger: Where pin mismatches are reported (host and the presented pin; never a header,
    ///     token or body).
    /// - Throws: When a trust root is not a DER certificate.
    public convenience init(
        pinning: CertificatePinning = .disabled, http2: Bool = true, maximumBodySize: Int = 64 << 20,
        logger: Logger = Logger(label: "edugo.sdk.tls")
    ) throws {
        self.init(
            trustRoots: try pinning.trustRoots.map { try NIOSSLCertificate(bytes: Array($0), format: .der) },
            pins: pinning.pins, http2: http2, maximumBodySize: maximumBodySize, logger: logger)
    }

    /// A transport without pins that validates against the system's roots.
    static func unpinned() -> AsyncHTTPClientTransport {
        AsyncHTTPClientTransport(
            trustRoots: [], pins: [:], http2: true, maximumBodySize: 64 << 20, logger: Logger(label: "edugo.sdk.tls"))
    }

    private init(
        trustRoots: [NIOSSLCertificate], pins: [String: Set<CertificatePinning.Pin>], http2: Bool, maximumBodySize: Int,
        logger: Logger
    ) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if !trustRoots.isEmpty {
            tls.trustRoots = .certificates(trustRoots)
        }
        func makeClient(checking pins: (host: String, pins: Set<CertificatePinning.Pin>)?) -> HTTPClient {
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = tls
            configuration.redirectConfiguration = .disallow
            configuration.httpVersion = http2 ? .automatic : .http1Only
            // The SDK retries by its own policy; a refused or untrusted connection fails at once.
            configuration.connectionPool.retryConnectionEstablishment = false
            let check = pins.map { PinCheck(host: $0.host, pins: $0.pins, logger: logger) }
            configuration.http1_1ConnectionDebugInitializer = { channel in Self.prepare(channel, checking: check) }
            configuration.http2ConnectionDebugInitializer = { channel in Self.prepare(channel, checking: check) }
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
        self.pinnedClients = Dictionary(
            uniqueKeysWithValues: pins.map { host, pins in (host, makeClient(checking: (host, pins))) })
        self.otherClient = makeClient(checking: nil)
        self.maximumBodySize = maximumBodySize
    }

    /// Readies a new connection before any request is sent: reads of up to 256 KiB, then the host's
    /// pins checked when it has any.
    ///
    /// A large body (a lesson's media) then arrives in buffers of up to 256 KiB as the socket holds
    /// them, not 64 KiB at a time: each buffer is one hop from the event loop to the task that
    /// takes it, and those hops (thread wake-ups) were a tenth of a 256 MiB download's CPU. Reads of
    /// up to 1 MiB were no faster and took `edugo download`'s peak RSS from 56 to 69 MB.
    private static func prepare(_ channel: any Channel, checking check: PinCheck?) -> EventLoopFuture<Void> {
        channel.setOption(
            ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 256 << 10)
        ).flatMap {
            check?.verify(channel) ?? channel.eventLoop.makeSucceededVoidFuture()
        }
    }

    deinit {
        for client in pinnedClients.values { client.shutdown { _ in } }
        otherClient.shutdown { _ in }
    }

    /// The client whose connections answer to `url`'s host's pins (the unpinned one for a host
    /// without pins), and the normalized host.
    func client(for url: URL) -> (client: HTTPClient, host: String) {
        let host = CertificatePinning.normalized(url.host ?? "")
        return (pinnedClients[host] ?? otherClient, host)
    }

    /// Sends one attempt of `request` on the client for its host (a pinned one when the host has pins).
    ///
    /// - Throws: ``NetworkError/pinningFailed(host:)`` or ``NetworkError/untrustedCertificate(host:)``
    ///   when the server was refused before anything was sent, ``NetworkError/timeout``,
    ///   ``NetworkError/noConnection`` or another ``NetworkError``.
    public func send(_ request: APIRequest) async throws -> APIResponse {
        let (client, host) = client(for: request.url)
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(request.timeout.wholeNanoseconds))
            let buffer = try await response.body.collect(upTo: maximumBodySize)
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            return APIResponse(statusCode: Int(response.status.code), headers: headers, body: Data(buffer.readableBytesView))
        } catch {
            throw Self.classify(error, host: host)
        }
    }

    /// The ``NetworkError`` a failure of AsyncHTTPClient or swift-nio-ssl stands for.
    static func classify(_ error: any Error, host: String) -> any Error {
        switch error {
        case let error as NetworkError: return error
        case is CancellationError: return error
        case is NIOSSLExtraError: return NetworkError.untrustedCertificate(host: host)  // host name mismatch
        case NIOSSLError.handshakeFailed(let reason):
            return "\(reason)".contains("CERTIFICATE_VERIFY_FAILED")
                ? NetworkError.untrustedCertificate(host: host) : NetworkError.securityError("TLS handshake failed")
        case is NIOSSLError: return NetworkError.securityError("TLS failed")
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return NetworkError.timeout
            case .cancelled: return NetworkError.cancelled
            case .remoteConnectionClosed: return NetworkError.noConnection
            default: return NetworkError.unknown("HTTPClientError \(error.shortDescription)")
            }
        case is NIOConnectionError, is IOError, is ChannelError: return NetworkError.noConnection
        default: return NetworkError.unknown(String(describing: type(of: error)))
        }
    }
}

/// The pin check one pinned host's connections go through, after BoringSSL's validation and
/// before the connection serves a request.
private struct PinCheck: Sendable {
    let host: String
    let pins: Set<CertificatePinning.Pin>
    let logger: Logger

    func verify(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            let presented = try certificate.map { CertificatePinning.Pin(subjectPublicKeyInfo: try $0.extractPublicKey().toSPKIBytes()) }
            guard let presented, pins.contains(presented) else {
                logger.warning(
                    "TLS public key pin mismatch: connection closed before any request was sent",
                    metadata: ["host": .string(host), "presented_pin": .string(presented?.description ?? "none")])
                throw NetworkError.pinningFailed(host: host)
            }
        }.flatMapError { error in
            // Closed on the next turn of the loop: the pool first learns that the connection
            // failed, so its close is not taken for the loss of a connection it handed out.
            channel.eventLoop.execute { channel.close(promise: nil) }
            return channel.eventLoop.makeFailedFuture(error)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
#endif
