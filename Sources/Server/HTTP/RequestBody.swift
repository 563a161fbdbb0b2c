import Foundation
import Hummingbird

/// Strict JSON body reading: media type, size limit, well-formedness, no unknown members.
enum RequestBody {
    /// Reads and decodes a JSON object body.
    ///
    /// - Throws: What ``readObject(from:limit:)`` throws, or `400 validation_failed` for unknown
    ///   members, missing members and wrong types.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, allowedKeys: Set<String>, limit: Int
    ) async throws -> T {
        let (data, object) = try await readObject(from: request, limit: limit)
        let unknown = object.keys.filter { !allowedKeys.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw APIError.validation(
                unknown.map { .init(field: $0, code: "unknown_field", message: "is not a recognised field") })
        }
        do {
            return try APICoding.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw Self.validationError(error)
        }
    }

    /// Decodes a body object read by ``readObject(from:limit:)`` as `Body`, then runs its checks:
    /// every member's error at once.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member (at most
    ///   ``APIError/maxFieldErrors``, with `error_count`).
    static func decode<Body: ValidatedBody>(_ type: Body.Type, from object: [String: JSONValue]) throws -> Body {
        let (decoded, decodingErrors) = try JSONValueDecoder().decode(Body.self, from: .object(object))
        var body = decoded
        var validation = FieldValidation(decodingErrors: decodingErrors)
        body.validate(&validation)
        let errors = validation.allErrors
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return body
    }

    /// Reads a JSON object body, returning the raw bytes and the parsed members.
    ///
    /// The body is refused as soon as it is known to exceed `limit` (its `Content-Length`, or
    /// its bytes as they stream in), and parsed under ``JSONParser/Limits/requestBody``.
    /// - Throws: `415 unsupported_media_type`, `413 payload_too_large` (naming `limit`),
    ///   `400 malformed_json`, `400 json_too_deep`, `400 json_too_many_elements`.
    static func readObject(from request: Request, limit: Int) async throws -> (Data, [String: JSONValue]) {
        guard let contentType = request.headers[.contentType], isJSON(contentType) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                detail: "Send the body as application/json.")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: limit)
        }
        let data = Data(buffer: buffer)
        let value: JSONValue
        do {
            value = try JSONParser.parse(data, limits: .requestBody)
        } catch JSONParser.Failure.tooDeep {
            throw APIError(
                .badRequest, code: "json_too_deep",
                detail: "The request body nests more than \(JSONParser.Limits.requestBody.depth) arrays and objects.")
        } catch JSONParser.Failure.tooManyElements {
            throw APIError(
                .badRequest, code: "json_too_many_elements",
                detail: "The request body holds more than \(JSONParser.Limits.requestBody.elements) values.")
        } catch {
            throw APIError(.badRequest, code: "malformed_json", detail: "The request body is not valid JSON.")
        }
        guard case .object(let object) = value else {
            throw APIError(.badRequest, code: "malformed_json", detail: "The request body must be a JSON object.")
        }
        return (data, object)
    }

    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    private static func validationError(_ error: DecodingError) -> APIError {
        func name(_ path: [any CodingKey]) -> String {
            let joined = path.map { $0.intValue.map(String.init) ?? snakeCase($0.stringValue) }.joined(separator: ".")
            return joined.isEmpty ? "body" : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .validation(field: name(context.codingPath + [key]), code: "required", message: "is required")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .validation(field: name(context.codingPath), code: "invalid_type", message: "has the wrong type")
        case .dataCorrupted(let context):
            return .validation(field: name(context.codingPath), code: "invalid_value", message: "is not a valid value")
        @unknown default:
            return .validation(field: "body", code: "invalid_value", message: "is not valid")
        }
    }

    private static func snakeCase(_ key: String) -> String {
        var result = ""
        for character in key {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
