import Foundation
import Hummingbird

/// A request body as the request journal keeps it (`--journal-bodies`): JSON with the value of
/// every member whose name holds `password` or `token` replaced by `"[redacted]"`, at any depth.
/// Nothing else is kept: a body that is not JSON, has no `Content-Length` or is larger than the
/// limit is described, not stored, and a streamed upload (lesson media) is never read here.
enum JournalBody {
    static let redacted = "[redacted]"

    /// Reads `request`'s body (putting it back for the handler) and answers it redacted, or a
    /// description of why it was not kept; `nil` when bodies are not kept (`limit` is `nil`) or
    /// the request has none.
    static func kept(of request: inout Request, limit: Int?) async -> String? {
        guard let limit, let length = request.headers[.contentLength].flatMap(Int.init), length > 0 else { return nil }
        let type = request.headers[.contentType] ?? ""
        guard RequestBody.isJSON(type) else {
            return "[\(length) bytes of \(type.isEmpty ? "no content type" : String(type.prefix(100))), not kept]"
        }
        guard length <= limit else { return "[\(length) bytes, over the journal's limit, not kept]" }
        guard let buffer = try? await request.collectBody(upTo: limit) else { return "[body not read]" }
        return redacting(Data(buffer.readableBytesView))
    }

    /// `data` as JSON text with every secret member's value replaced; a description when it is not JSON.
    static func redacting(_ data: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let text = try? JSONSerialization.data(withJSONObject: redacting(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "[\(data.count) bytes, not JSON, not kept]" }
        return String(decoding: text, as: UTF8.self)
    }

    private static func redacting(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (name, member) in object {
                let lowered = name.lowercased()
                copy[name] = lowered.contains("password") || lowered.contains("token") ? redacted : redacting(member)
            }
            return copy
        }
        if let array = value as? [Any] { return array.map(redacting) }
        return value
    }
}
