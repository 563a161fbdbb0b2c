import EduGoServerStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Applies the tenant's fault rules to each request (dev mode only).
///
/// Sits just inside the ``HTTPHygiene`` middlewares so an injected status still gets problem+json and
/// the security headers, and outside everything else, so a dropped response is dropped after the
/// idempotency record and the write have committed. `/__dev/*` is never faulted: a broad rule must
/// not lock a test out of deleting it.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let injector: FaultInjector
    let tokens: TokenService

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !DevHostGuard.isDevPath(path), injector.isArmed,
            let tenant = await tenant(of: request, named: context.namedTenant),
            let firing = await injector.fire(tenant: tenant, method: request.method.rawValue, path: path)
        else {
            return try await next(request, context)
        }
        let rule = firing.rule
        context.notes?.record(rule)
        if firing.delayMs > 0 {
            try await Task.sleep(for: .milliseconds(firing.delayMs))
        }
        switch rule.action {
        case .delay:
            return try await next(request, context)
        case .status:
            throw APIError.injectedFault(status: rule.status, retryAfter: rule.retryAfter)
        case .dropRequest:
            try? await context.channel.close()
            context.notes?.recordDropped()
            return Response(status: .serviceUnavailable)
        case .dropResponse:
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                try? await context.channel.close()
                context.notes?.recordDropped()
                throw error
            }
            try? await context.channel.close()
            context.notes?.recordDropped()
            return response
        case .slowBody:
            var response = try await next(request, context)
            response.body = FaultyResponseBody.slow(
                response.body, chunks: rule.chunks ?? 1, over: .milliseconds(rule.durationMs ?? 0))
            return response
        case .truncate:
            var response = try await next(request, context)
            response.body = FaultyResponseBody.truncated(response.body, after: rule.bytes ?? 0, closing: context.channel)
            return response
        case .garbage:
            await GarbageAnswer.send(firing.garbage, on: context.channel)
            context.notes?.recordDropped()
            return Response(status: .serviceUnavailable)
        }
    }

    /// The tenant a request belongs to: the verified token's, else the one it names.
    private func tenant(of request: Request, named: NamedTenant) async -> TenantID? {
        if let header = request.headers[.authorization] {
            if let token = BearerToken.from(header),
                let claims = try? await tokens.verify(String(token)),
                let tenant = TenantID(claims.tid)
            {
                return tenant
            }
        }
        return named.tenantID
    }
}

extension APIError {
    /// The answer of a `status` fault rule.
    static func injectedFault(status: Int, retryAfter: Int?) -> APIError {
        var headers = HTTPFields()
        if let retryAfter {
            headers[.retryAfter] = String(retryAfter)
        }
        return APIError(
            .standard(code: status), code: "injected_fault",
            detail: "A fault rule of the development server answered this request.", headers: headers)
    }
}
