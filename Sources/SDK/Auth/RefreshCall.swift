import Foundation

/// `POST /v1/auth/refresh`, sent without the auth interceptor (it is how that interceptor gets
/// its tokens).
struct RefreshCall: Sendable {
    let configuration: APIConfiguration
    let chain: InterceptorChain
    let now: @Sendable () -> Date

    func perform(refreshToken: String) async throws -> SessionTokens {
        let endpoint = Endpoint.Auth.refresh
        let body = try JSONCoding.encoder.encode(["refresh_token": refreshToken])
        let request = APIRequest(
            endpoint: endpoint, url: try endpoint.url(relativeTo: configuration.baseURL),
            headers: ["Content-Type": "application/json", "Accept": "application/json", "X-Tenant-ID": configuration.tenantID],
            body: body, timeout: configuration.timeout)
        let response: APIResponse
        do {
            response = try await chain.send(request)
        } catch {
            throw NetworkError.from(transportError: error)
        }
        guard response.isSuccess else { throw NetworkError.from(response: response, now: now()) }
        do {
            let pair = try JSONCoding.decoder.decode(TokenResponse.self, from: response.body)
            return pair.sessionTokens(tenantID: configuration.tenantID, now: now())
        } catch {
            throw NetworkError.decodingError(String(describing: error))
        }
    }
}
