extension ServerConfiguration {
    /// How many connections the server serves, how long an idle or old one lives, and whether
    /// HTTPS offers HTTP/2.
    public struct ConnectionOptions: Sendable {
        /// A connection with no request in progress (including one whose request head never
        /// completes), or whose answer makes no progress while it has something to write (a client
        /// that stops reading), is closed after this long; `nil` never closes one.
        public var idleTimeout: Duration? = .seconds(30)
        /// The most connections served at once; further ones wait in the listen backlog.
        public var maxConnections = 512
        /// With TLS and HTTP/2: a connection older than this is sent GOAWAY, and closed
        /// ``http2GracefulCloseTimeout`` later whatever the client does; `nil` lets it live as long
        /// as it is used. One hour by default.
        public var maxAge: Duration? = .seconds(3600)
        /// With ``ServerConfiguration/tls``: offer HTTP/2 by ALPN (HTTP/1.1 is served alongside);
        /// off serves HTTP/1.1 only.
        public var offersHTTP2 = true

        /// How long an HTTP/2 connection that was sent GOAWAY may finish its streams before it is
        /// closed: the idle timeout, or 30 seconds without one.
        public var http2GracefulCloseTimeout: Duration { idleTimeout ?? .seconds(30) }

        /// The defaults.
        public init() {}
    }
}
