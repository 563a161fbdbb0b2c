import Foundation
import Hummingbird

/// `GET /__dev/` and `GET /__dev/assets/{name}`: the dev console, a single page over the JSON
/// `/__dev/*` endpoints. Installed only in dev mode, behind the same perimeter as every dev route.
struct ConsoleRoutes: RouteModule {
    let assets: ConsoleAssets

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/", use: page)
        routes.get("/__dev/assets/{name}", use: asset)
        return routes
    }

    @Sendable func page(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try serve("index.html")
    }

    @Sendable func asset(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let name = try request.pathParameter("name", context)
        guard name != "index.html" else { throw APIError.notFound("console file") }
        return try serve(name)
    }

    private func serve(_ name: String) throws -> Response {
        guard let asset = assets[name] else { throw APIError.notFound("console file") }
        var headers = HTTPFields()
        headers[.contentType] = asset.contentType
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = ConsoleAssets.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
