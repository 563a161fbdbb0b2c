/// Adds `X-Tenant-ID` to every request and the bearer token to authenticated ones; after a 401
/// it refreshes once (single-flight, through the coordinator) and retries the request. A request
/// that names its user (``APIRequest/expectedUserID``) is never sent with another user's token.
public struct AuthInterceptor: Interceptor {
    let tenantID: String
    let coordinator: TokenRefreshCoordinator

    /// Adds the tenant header and, when the endpoint requires it, the user's access token; after a 401
    /// it refreshes the token once and sends the request again.
    ///
    /// - Throws: ``NetworkError/unauthorized(code:)`` or ``NetworkError/sessionExpired`` when no valid
    ///   token can be had, or what `next` throws.
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        var request = request
        request.headers["X-Tenant-ID"] = tenantID
        guard request.endpoint.requiresAuthentication else { return try await next(request) }
        let token = try await coordinator.validAccessToken(for: request.expectedUserID)
        request.headers["Authorization"] = "Bearer \(token)"
        let response = try await next(request)
        guard response.statusCode == 401 else { return response }
        let refreshed = try await coordinator.accessTokenAfterUnauthorized(failedToken: token, for: request.expectedUserID)
        request.headers["Authorization"] = "Bearer \(refreshed)"
        return try await next(request)
    }
}
