import Foundation
import Hummingbird

extension Dependencies {
    /// The shape of every authenticated resource write: read the JSON body (when the operation
    /// takes one), then run the operation as the authenticated caller under the request's
    /// `Idempotency-Key`.
    func write(
        _ request: Request, _ context: EduGoRequestContext, hasBody: Bool = true,
        _ operation: @escaping @Sendable (Identity, [String: JSONValue]) async throws -> EncodedResponse
    ) async throws -> Response {
        let identity = try context.requireIdentity()
        var data = Data()
        var body: [String: JSONValue] = [:]
        if hasBody {
            (data, body) = try await RequestBody.readObject(from: request, limit: bodyLimit)
        }
        return try await idempotency.perform(
            key: request.headers[.idempotencyKey], identity: identity, method: request.method.rawValue,
            path: request.uri.path, body: data
        ) {
            try await operation(identity, body)
        }
    }
}
