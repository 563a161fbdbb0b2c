import EduGoServerStore
import Foundation
import Hummingbird

/// `Idempotency-Key` on authenticated POST, PUT and PATCH (``IdempotencyCoordinator``): the
/// first request with a key runs and its successful answer is stored; a repeat is answered from
/// the store without running the handler again.
///
/// Runs after ``AuthenticationMiddleware`` (keys are scoped by tenant and user). A request
/// without the header passes straight through.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = EduGoRequestContext

    let coordinator: IdempotencyCoordinator
    let bodyLimit: Int

    static let methods: Set<HTTPRequest.Method> = [.post, .put, .patch]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.methods.contains(request.method), let key = request.headers[.idempotencyKey] else {
            return try await next(request, context)
        }
        let identity = try context.requireIdentity()
        var collected = request
        let body = try await collected.collectBody(upTo: bodyLimit)
        return try await coordinator.perform(
            key: key, identity: identity, method: request.method.rawValue, path: request.uri.path,
            body: Data(buffer: body)
        ) {
            try await EncodedResponse(collecting: next(collected, context))
        }
    }
}

extension EncodedResponse {
    /// The response with its body read into memory (handlers of writes answer small JSON bodies).
    init(collecting response: Response) async throws {
        let sink = BodySink()
        try await response.body.write(BodySinkWriter(sink: sink))
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name.canonicalName] = field.value }
        self.init(status: response.status, headers: headers, body: Data(buffer: sink.buffer))
    }
}

/// Where ``BodySinkWriter`` puts what it is given (the writer itself is consumed by the body).
private final class BodySink {
    var buffer = ByteBuffer()
}

private struct BodySinkWriter: ResponseBodyWriter {
    let sink: BodySink

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        sink.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
