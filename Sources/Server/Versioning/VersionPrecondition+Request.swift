import EduGoServerStore
import Foundation
import Hummingbird

/// Reading the version an update was based on from its request: `If-Match`, or the body's
/// `version`.
extension VersionPrecondition {
    /// The base version the request names, `nil` when it names none (an upsert's first write).
    static func from(_ request: Request, body: [String: JSONValue]) throws -> VersionPrecondition? {
        var bodyVersion: Int?
        if let value = body["version"] {
            guard case .integer(let number) = value, number >= 1 else {
                throw APIError.validation(field: "version", code: "invalid_type", message: "must be a positive 64-bit integer")
            }
            bodyVersion = Int(number)
        }
        if let header = request.headers[.ifMatch] {
            let tags = ETag.list(header)
            if tags.contains("*") { return VersionPrecondition(version: nil, source: .any) }
            // Tags that are not versions (or not tags at all) match nothing: 412 like a stale tag.
            // If-Match compares strongly (RFC 9110 §13.1.1), so a weak tag matches nothing either.
            let versions = tags.filter { !$0.hasPrefix("W/") }.compactMap(ETag.version(from:))
            return VersionPrecondition(version: versions.first ?? -1, source: .ifMatch, alternatives: versions)
        }
        if let bodyVersion {
            return VersionPrecondition(version: bodyVersion, source: .body)
        }
        return nil
    }

    /// The base version of an update that needs one: `428 precondition_required` when the
    /// request names none.
    static func required(_ request: Request, body: [String: JSONValue]) throws -> VersionPrecondition {
        guard let precondition = try from(request, body: body) else {
            throw APIError(
                .preconditionRequired, code: "precondition_required",
                detail: "Name the version this update is based on, in If-Match or in the body's version.")
        }
        return precondition
    }
}

/// Strong entity tags of the form `"<version>"`.
enum ETag {
    static func header(version: Int) -> String { "\"\(version)\"" }

    /// Reads a version from `"3"` (or a weak `W/"3"`).
    static func version(from tag: String) -> Int? {
        var tag = tag
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        guard tag.count >= 3, tag.hasPrefix("\""), tag.hasSuffix("\"") else { return nil }
        return Int(tag.dropFirst().dropLast())
    }

    /// The members of `*` or a comma-separated list of entity tags (RFC 9110 §8.8.3).
    static func list(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
