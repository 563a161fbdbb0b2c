import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// One entry of `GET /v1/sync/changes`, decoded independently of the server's types.
struct ChangeBody: Decodable {
    var type: String
    var op: String
    var id: String
    var courseId: String?
    var data: ChangeData?

    /// The entity the change is about.
    var key: String { "\(type)/\(id)" }
    /// The upserted representation's `title`, when it has one.
    var title: String? { data?.title }
}

/// The members of an upserted representation the tests look at (every type has some of them).
struct ChangeData: Decodable, Sendable {
    var title: String?
    var version: Int?
    var published: Bool?
    var role: String?
    var watchedSeconds: Int?
    var courseId: String?
}

struct ChangePageBody: Decodable {
    var changes: [ChangeBody]
    var cursor: String
    var hasMore: Bool
}

/// What a client holds after applying pulled pages: the latest upsert per entity, tombstones removing.
struct PulledState {
    var entities: [String: ChangeBody] = [:]
    var cursor: String?
    var requests = 0
    var seen: [String] = []

    mutating func apply(_ page: ChangePageBody) {
        for change in page.changes {
            seen.append(change.key)
            if change.op == "delete" {
                entities[change.key] = nil
                // A course's tombstone takes what hangs off it, as the SDK does.
                if change.type == "course" {
                    entities = entities.filter { $0.value.courseId != change.id || $0.value.type == "profile" }
                }
            } else {
                entities[change.key] = change
            }
        }
        cursor = page.cursor
        requests += 1
    }

    var keys: Set<String> { Set(entities.keys) }
    func titles(_ type: String) -> Set<String> { Set(entities.values.filter { $0.type == type }.compactMap(\.title)) }
}

extension TestClientProtocol {
    /// One page of the feed after `cursor`.
    func changes(as caller: Caller, cursor: String?, limit: Int? = nil) async throws -> TestResponse {
        var query: [String] = []
        if let cursor { query.append("cursor=\(cursor)") }
        if let limit { query.append("limit=\(limit)") }
        return try await get("/v1/sync/changes" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), as: caller)
    }

    /// Pulls until `has_more` is false, applying each page to `state`.
    func pull(as caller: Caller, into state: inout PulledState, limit: Int? = nil) async throws {
        while true {
            let response = try await changes(as: caller, cursor: state.cursor, limit: limit)
            let page = try expectOK(ChangePageBody.self, response, "pull changes")
            state.apply(page)
            if !page.hasMore { return }
            if state.requests > 10_000 { throw HelperFailure(description: "the feed never ended") }
        }
    }
}
