import EduGoServerStore
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

    /// The answer as the idempotency store keeps it.
    var stored: StoredAnswer {
        StoredAnswer(status: Int(status.code), headers: headers, body: body)
    }

    /// A stored answer, to be replayed.
    init(_ stored: StoredAnswer) {
        self.init(status: HTTPResponse.Status(code: stored.status), headers: stored.headers, body: stored.body)
    }

    init(status: HTTPResponse.Status, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
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
