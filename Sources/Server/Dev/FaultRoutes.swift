import Foundation
import Hummingbird

/// `/__dev/faults`: create, list and delete the fault rules of the tenant named by `X-Tenant-ID`.
struct FaultRoutes: RouteModule {
    let deps: Dependencies
    let injector: FaultInjector

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/__dev/faults", use: create)
        routes.get("/__dev/faults", use: list)
        routes.delete("/__dev/faults", use: removeAll)
        routes.delete("/__dev/faults/{id}", use: remove)
        return routes
    }

    struct RuleList: Encodable { var items: [FaultRule] }

    @Sendable func create(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(context).tenantID
        let (_, object) = try await RequestBody.readObject(from: request, limit: deps.bodyLimit)
        let rule = try await injector.add(object, tenant: tenant)
        return try JSONResponse.make(rule, status: .created)
    }

    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(context).tenantID
        return try JSONResponse.make(RuleList(items: await injector.rules(tenant: tenant)))
    }

    @Sendable func removeAll(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(context).tenantID
        await injector.removeAll(tenant: tenant)
        return JSONResponse.empty()
    }

    @Sendable func remove(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let tenant = try await deps.authenticator.namedTenant(context).tenantID
        let id = try request.pathParameter("id", context)
        guard await injector.remove(id: id, tenant: tenant) else { throw APIError.notFound("fault rule") }
        return JSONResponse.empty()
    }
}
