import Foundation
import Hummingbird

/// Unversioned routes: liveness, the JWKS and the OpenAPI document.
struct SystemRoutes: RouteModule {
    let deps: Dependencies

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/health", use: health)
        routes.get("/.well-known/jwks.json", use: jwks)
        routes.get("/openapi.yaml", use: openAPI)
        return routes
    }

    /// `/health`'s two possible bodies, written once instead of encoded on every poll.
    static let healthy = ByteBuffer(string: #"{"status":"ok","database":"ok"}"#)
    static let unhealthy = ByteBuffer(string: #"{"status":"unavailable","database":"unavailable"}"#)

    @Sendable func health(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        if await deps.health.isReachable() {
            return JSONResponse.make(encoded: Self.healthy)
        }
        return JSONResponse.make(encoded: Self.unhealthy, status: .serviceUnavailable)
    }

    @Sendable func jwks(_ request: Request, context: EduGoRequestContext) async throws -> some ResponseGenerator {
        APIResponse(deps.tokens.jwks, caching: .publicFor(seconds: 300))
    }

    @Sendable func openAPI(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { throw APIError.notFound("document") }
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        headers[.cacheControl] = "public, max-age=60"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
