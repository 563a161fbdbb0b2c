import EduGoServerStore
import Foundation
import Hummingbird

extension Dependencies {
    /// The shape of every authenticated resource write: read the JSON body (when the operation
    /// takes one), then run the operation as the authenticated caller. (`Idempotency-Key` is
    /// handled around it by ``IdempotencyMiddleware``.)
    func write<Output: ResponseGenerator>(
        _ request: Request, _ context: EduGoRequestContext, hasBody: Bool = true,
        _ operation: @escaping @Sendable (Identity, [String: JSONValue]) async throws -> Output
    ) async throws -> Output {
        let identity = try context.requireIdentity()
        var body: [String: JSONValue] = [:]
        if hasBody {
            (_, body) = try await RequestBody.readObject(from: request, limit: bodyLimit)
        }
        return try await operation(identity, body)
    }
}
