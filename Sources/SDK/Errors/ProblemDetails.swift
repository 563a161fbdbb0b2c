import Foundation

/// An RFC 9457 problem as the EduGo server sends it.
public struct ProblemDetails: Sendable, Decodable, Equatable {
    /// One field-level validation failure.
    public struct FieldError: Sendable, Decodable, Equatable {
        /// The field's name as the API spells it, such as `first_name`.
        public var field: String
        /// A stable code for what is wrong with the field, to match on.
        public var code: String
        /// A readable explanation, for logs or as a fallback message.
        public var message: String
    }

    /// A URI that names the kind of problem.
    public var type: String?
    /// A short summary of the kind of problem.
    public var title: String?
    /// The HTTP status the server answered with.
    public var status: Int?
    /// An explanation of this occurrence, for logs.
    public var detail: String?
    /// EduGo's stable error code (`version_conflict`, `not_enrolled`, …): what code should match on.
    public var code: String?
    /// The server's id of the request; quote it in logs and support requests.
    public var requestId: String?
    /// The field errors of a validation failure.
    public var errors: [FieldError]?
    /// For version conflicts: the version the server holds now.
    public var currentVersion: Int?
    /// For version conflicts: the server's current representation, as raw JSON.
    public var current: Data?
    /// For an expired change-feed cursor (`cursor_expired`): why, such as `timeline_changed`.
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, code, requestId, errors, currentVersion, current, reason
    }

    /// Decodes a problem body, keeping ``current`` as raw JSON with its keys as the server wrote them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        code = try container.decodeIfPresent(String.self, forKey: .code)
        requestId = try container.decodeIfPresent(String.self, forKey: .requestId)
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors)
        currentVersion = try container.decodeIfPresent(Int.self, forKey: .currentVersion)
        current = try container.decodeIfPresent(RawJSON.self, forKey: .current)?.data
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
    }

    /// Decodes a problem body; `nil` when the body is not one.
    static func decode(_ data: Data) -> ProblemDetails? {
        try? JSONCoding.decoder.decode(ProblemDetails.self, from: data)
    }
}

/// Captures any JSON value and re-encodes it as bytes.
struct RawJSON: Decodable {
    let data: Data

    init(from decoder: any Decoder) throws {
        let value = try AnyJSON(from: decoder)
        data = try JSONSerialization.data(withJSONObject: value.object, options: [.fragmentsAllowed, .sortedKeys])
    }
}

/// A JSON value decoded generically.
///
/// Objects are decoded as `[String: AnyJSON]`, never through a keyed container: the API's decoder
/// converts keyed-container keys from snake_case, which would hand back `teacherId` where the
/// server wrote `teacher_id`. Dictionary keys are left exactly as received.
private struct AnyJSON: Decodable {
    let object: Any

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            object = NSNull()
        } else if let bool = try? single.decode(Bool.self) {
            object = bool
        } else if let int = try? single.decode(Int.self) {
            object = int
        } else if let double = try? single.decode(Double.self) {
            object = double
        } else if let string = try? single.decode(String.self) {
            object = string
        } else if let array = try? single.decode([AnyJSON].self) {
            object = array.map(\.object)
        } else {
            object = try single.decode([String: AnyJSON].self).mapValues(\.object)
        }
    }
}
