/// A step around every request: it may change the request, call `next`, and change or inspect
/// the response. Interceptors compose as a chain, the first one outermost.
public protocol Interceptor: Sendable {
    func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse
}

/// An interceptor that only adapts the outgoing request.
public protocol RequestInterceptor: Interceptor {
    func adapt(_ request: APIRequest) async throws -> APIRequest
}

/// An interceptor that only inspects or replaces the response.
public protocol ResponseInterceptor: Interceptor {
    func process(_ response: APIResponse, for request: APIRequest) async throws -> APIResponse
}

extension RequestInterceptor {
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        try await next(adapt(request))
    }
}

extension ResponseInterceptor {
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
