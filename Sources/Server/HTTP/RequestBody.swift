import Foundation
import Hummingbird

/// Strict JSON body reading: media type, size limit, well-formedness, no unknown members.
enum RequestBody {
    /// Reads and decodes a JSON object body.
    ///
    /// Unknown members are listed after the error of the known ones (a missing or mistyped member,
    /// or those ``FieldChecked`` names), never instead of it.
    /// - Throws: What ``readObject(from:limit:)`` throws, or `400 validation_failed` for unknown
    ///   members, missing members and wrong types.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, allowedKeys: Set<String>, limit: Int
    ) async throws -> T {
        let (data, object) = try await readObject(from: request, limit: limit)
        let unknown = JSONObjectReader.unknownMembers(object, known: allowedKeys)
        let decoded: T
        do {
            decoded = try APICoding.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.validation([Self.fieldError(error)] + unknown)
        }
        if !unknown.isEmpty {
            throw APIError.validation(((decoded as? any FieldChecked)?.fieldErrors ?? []) + unknown)
        }
        return decoded
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

    /// The field errors ``decode(_:from:)`` would answer for `object` (none when it decodes and
    /// passes its checks): members the body does not take are ignored here.
    static func fieldErrors<Body: ValidatedBody>(_ type: Body.Type, in object: [String: JSONValue]) -> [APIError.FieldError] {
        do {
            _ = try decode(Body.self, from: object)
            return []
        } catch let error as APIError {
            return error.errors
        } catch {
            return []
        }
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

    private static func fieldError(_ error: DecodingError) -> APIError.FieldError {
        func name(_ path: [any CodingKey]) -> String {
            let joined = path.map { $0.intValue.map(String.init) ?? snakeCase($0.stringValue) }.joined(separator: ".")
            return joined.isEmpty ? "body" : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .init(field: name(context.codingPath + [key]), code: "required", message: "is required")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .init(field: name(context.codingPath), code: "invalid_type", message: "has the wrong type")
        case .dataCorrupted(let context):
            return .init(field: name(context.codingPath), code: "invalid_value", message: "is not a valid value")
        @unknown default:
            return .init(field: "body", code: "invalid_value", message: "is not valid")
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
