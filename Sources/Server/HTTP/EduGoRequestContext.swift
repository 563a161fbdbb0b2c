import EduGoServerStore
import Hummingbird
import HummingbirdAuth
import NIOCore

/// Per-request context: Hummingbird's core storage plus the client address and request id.
struct EduGoRequestContext: AuthRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address, `unknown` when the transport has none (in-process tests); read
    /// from the connection when asked (most requests never ask).
    var remoteAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
    /// The request id echoed in `X-Request-ID`; set by ``RequestIDMiddleware``.
    var requestID: String = ""
    /// The connection, so a dev-mode fault can close it without answering.
    let channel: any Channel
    /// The client the rate limits count: the peer, or the address a trusted proxy forwarded
    /// (``ClientAddressMiddleware``).
    var clientAddress: String {
        get { forwardedClient ?? remoteAddress }
        set { forwardedClient = newValue }
    }
    private var forwardedClient: String? = nil
    /// Where a dev-mode fault rule that fires, and the authenticated caller, are noted for the
    /// access log and the request journal; set by ``AccessLogMiddleware`` in dev mode.
    var notes: RequestNotes? = nil
    /// What `X-Tenant-ID` names; set by ``TenantHeaderMiddleware``.
    var namedTenant: NamedTenant = .absent
    /// The authenticated caller, on routes behind ``AuthenticationMiddleware`` (HummingbirdAuth's
    /// `AuthRequestContext` requirement).
    var identity: Identity? = nil

    /// Writes every `ResponseEncodable` a handler returns in the API's JSON conventions.
    var responseEncoder: APIResponseEncoder { APIResponseEncoder() }

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
