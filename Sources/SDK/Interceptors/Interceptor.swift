/// A step around every request: it may change the request, call `next`, and change or inspect
/// the response. Interceptors compose as a chain, the first one outermost.
public protocol Interceptor: Sendable {
    /// Handles one request: adapt it, send it with `next`, then inspect or replace the response.
    ///
    /// - Parameters:
    ///   - request: The request as the interceptors before this one left it.
    ///   - next: Runs the rest of the chain and the transport. Call it again to retry; skip it to
    ///     answer without the network.
    /// - Returns: The response handed back to the interceptors before this one.
    /// - Throws: To fail the request; ``APIClient`` maps the error to a ``NetworkError``.
    func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse
}

/// An interceptor that only adapts the outgoing request.
public protocol RequestInterceptor: Interceptor {
    /// Returns the request to send, for example with a header added.
    ///
    /// - Throws: To stop the request before it is sent.
    func adapt(_ request: APIRequest) async throws -> APIRequest
}

/// An interceptor that only inspects or replaces the response.
public protocol ResponseInterceptor: Interceptor {
    /// Returns the response to hand back, inspected or replaced.
    ///
    /// - Throws: To turn the response into a failure.
    func process(_ response: APIResponse, for request: APIRequest) async throws -> APIResponse
}

extension RequestInterceptor {
    /// Sends the request as ``adapt(_:)`` returns it.
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        try await next(adapt(request))
    }
}

extension ResponseInterceptor {
    /// Sends the request and hands the answer to ``process(_:for:)``.
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        try await process(next(request), for: request)
    }
}

/// Runs a request through interceptors, then the transport.
struct InterceptorChain: Sendable {
    let interceptors: [any Interceptor]
    let transport: any HTTPTransport

    func send(_ request: APIRequest) async throws -> APIResponse {
        try await run(request, from: 0)
    }

    private func run(_ request: APIRequest, from index: Int) async throws -> APIResponse {
        guard index < interceptors.count else { return try await transport.send(request) }
        return try await interceptors[index].intercept(request) { [self] next in
            try await self.run(next, from: index + 1)
        }
    }
}
