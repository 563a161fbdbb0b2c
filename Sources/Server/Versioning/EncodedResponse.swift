import Foundation
import Hummingbird
import HTTPTypes

/// A response whose body is already bytes, so it can be stored for idempotent replay
/// (``IdempotencyMiddleware`` collects it from the handler's answer).
struct EncodedResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: [String: String]
    var body: Data

    static func noContent() -> EncodedResponse {
        EncodedResponse(status: .noContent, headers: [:], body: Data())
    }

    func response(replayed: Bool = false) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        if replayed { fields[.idempotentReplayed] = "true" }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
