import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one request and returns the response. The only seam between the SDK and the network:
/// tests inject a stub, apps use ``URLSessionTransport``.
public protocol HTTPTransport: Sendable {
    /// Sends one attempt of `request` and returns whatever the server answered, error statuses
    /// included. Retries, token refresh and status mapping happen above it, in ``APIClient``.
    ///
    /// - Throws: `URLError` (or any error) when no HTTP response arrived.
    func send(_ request: APIRequest) async throws -> APIResponse

    /// Sends `request` and hands its body on as it arrives: `onHead` once, then `onChunk` with each
    /// piece as soon as it is read, in the calling task. The live change stream
    /// (`GET /v1/sync/events`) needs it; a transport without it (the default implementation throws
    /// ``StreamingUnsupported``) makes the SDK fall back to periodic pulls.
    ///
    /// - Throws: The transport's error when the connection fails before or during the body, or
    ///   what `onHead` / `onChunk` throw.
    func stream(
        _ request: APIRequest, onHead: (MediaResponseHead) async throws -> Void, onChunk: (Data) async throws -> Void
    ) async throws
}

/// ``HTTPTransport`` over one long-lived `URLSession` (FoundationNetworking on Linux).
///
/// On Apple platforms it can also enforce a ``CertificatePinning`` (``init(configuration:pinning:)``);
/// on Linux pinning needs ``AsyncHTTPClientTransport``.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession
    var pinning: CertificatePinning

    /// Creates a transport; the session is kept for the transport's lifetime.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
        self.pinning = .disabled
    }

    #if canImport(Security) && !canImport(FoundationNetworking)
    /// Creates a transport whose delegate evaluates the server's trust (against
    /// `pinning.trustRoots` when set) and then checks its public key against `pinning`.
    public init(configuration: URLSessionConfiguration = .ephemeral, pinning: CertificatePinning) {
        self.init(configuration: configuration)
        self.pinning = pinning
    }
    #endif

    /// Sends one attempt of `request`, first checking the server's trust and pins when the transport
    /// has a ``CertificatePinning``.
    ///
    /// - Throws: `URLError` when no response arrived, or ``NetworkError/pinningFailed(host:)`` /
    ///   ``NetworkError/untrustedCertificate(host:)`` when the server was refused.
    public func send(_ request: APIRequest) async throws -> APIResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.timeoutInterval = request.timeout.timeInterval
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return APIResponse(statusCode: http.statusCode, headers: headers, body: data)
    }

    private func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(Security) && !canImport(FoundationNetworking)
        if pinning.isEnabled {
            let delegate = PinningTaskDelegate(pinning: pinning, logger: Logger(label: "edugo.sdk.tls"))
            do {
                return try await session.data(for: request, delegate: delegate)
            } catch {
                throw delegate.refusal ?? error
            }
        }
        #endif
        return try await session.data(for: request)
    }
}
