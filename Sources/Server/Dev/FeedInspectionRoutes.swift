import EduGoServerStore
import Foundation
import Hummingbird

/// What the change feed holds and carries (dev mode only): `GET /__dev/tenants/{id}/changes`, the
/// newest entries of the tenant's change log with its timeline; `GET …/explain`, whether a
/// user's device should hold an entity and why not (``FeedExplanation``); and `GET …/devices`,
/// the tenant's open event streams with where each device stands (``ChangeHub/Device``).
struct FeedInspectionRoutes: RouteModule {
    let deps: Dependencies

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/tenants/{id}/changes", use: changes)
        routes.get("/__dev/tenants/{id}/explain", use: explain)
        routes.get("/__dev/tenants/{id}/devices", use: devices)
        return routes
    }

    struct DeviceList: Encodable {
        struct Device: Encodable {
            var streamId: Int
            var userId: String
            var email: String?
            var role: String?
            var impersonated: Bool?
            var openedAt: Date
            var openSeconds: Int
            var cursorSeq: Int64?
            var cursorFrom: String?
            var cursorAt: Date?
            var behind: Int?
        }

        var head: Int64
        /// Oldest first.
        var items: [Device]
    }

    struct ChangeList: Encodable {
        struct Entry: Encodable {
            var seq: Int64
            var entity: String
            var entityId: String
            var courseId: String?
            var userId: String?
            var draftOf: String?
            var changedAt: Date
            var operation: String?
            var exists: Bool
        }

        var timeline: String
        var timelineStartedAt: Date?
        var head: Int64
        var prunedThrough: Int64
        /// Newest first.
        var items: [Entry]
    }

    struct Explanation: Encodable {
        struct Reason: Encodable {
            var code: String
            var detail: String
        }

        var userId: String
        var role: String
        var entity: String
        var id: String
        var held: Bool
        var courseId: String?
        /// Empty when held.
        var reasons: [Reason]
    }

    /// `GET …/changes?limit=&before=`: the log's newest `limit` entries (50; 1 to 500) before
    /// sequence `before`.
    @Sendable func changes(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await tenant(request, context)
        var errors: [APIError.FieldError] = []
        var limit = 50
        if let text = request.query("limit") {
            if let value = Int(text), (1...500).contains(value) {
                limit = value
            } else {
                errors.append(.init(field: "limit", code: "out_of_range", message: "must be an integer from 1 to 500"))
            }
        }
        var before: Int64?
        if let text = request.query("before") {
            if let value = Int64(text), value >= 1 {
                before = value
            } else {
                errors.append(.init(field: "before", code: "out_of_range", message: "must be an integer of at least 1"))
            }
        }
        if !errors.isEmpty { throw APIError.validation(errors) }
        let recent = try await store.recentChanges(before: before, limit: limit)
        return try JSONResponse.make(
            ChangeList(
                timeline: recent.timeline.id, timelineStartedAt: recent.timeline.startedAt, head: recent.head,
                prunedThrough: recent.prunedThrough,
                items: recent.entries.map {
                    .init(
                        seq: $0.seq, entity: $0.entity, entityId: $0.entityID, courseId: $0.courseID, userId: $0.userID,
                        draftOf: $0.draftOf, changedAt: $0.changedAt, operation: $0.operation, exists: $0.exists)
                }))
    }

    /// `GET …/explain?user=&entity=&id=`: `user` is an id or an email of the tenant, `entity` a
    /// kind the feed carries; `404 not_found` for a user the tenant does not hold.
    @Sendable func explain(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await tenant(request, context)
        var errors: [APIError.FieldError] = []
        let user = request.query("user")
        if user.map({ (1...320).contains($0.count) }) != true {
            errors.append(.init(field: "user", code: "required", message: "must be a user id or an email"))
        }
        let entity = request.query("entity").flatMap { FeedEntity.named($0) }
        if entity == nil {
            let names = FeedEntity.all.map(\.name).joined(separator: ", ")
            errors.append(.init(field: "entity", code: "invalid_value", message: "must be one of \(names)"))
        }
        let id = request.query("id")
        if id.map({ (1...200).contains($0.count) }) != true {
            errors.append(.init(field: "id", code: "required", message: "must be the entity's id (1 to 200 characters)"))
        }
        guard errors.isEmpty, let user, let entity, let id else { throw APIError.validation(errors) }
        var account = try await store.user(actedAs: user)
        if account == nil { account = try await store.user(emailKey: UserRecord.emailKey(user)) }
        guard let account else { throw APIError.notFound("user") }
        let explanation = try await store.explain(entity, id: id, to: account)
        return try JSONResponse.make(
            Explanation(
                userId: account.id, role: account.role.rawValue, entity: entity.name, id: id, held: explanation.held,
                courseId: explanation.courseID,
                reasons: explanation.reasons.map { .init(code: $0.rawValue, detail: Self.detail($0, entity: entity, role: account.role)) }))
    }

    /// `GET …/devices`: the tenant's open event streams, oldest first, each with its user, how long
    /// it has been open, the change sequence its device stands at (from its `Last-Event-ID`, then
    /// from its session's pulls) and how many changes it would hear of after it.
    @Sendable func devices(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await tenant(request, context)
        let now = deps.now
        let devices = deps.changeHub.devices(of: store.tenantID)
        let head = try await store.changeSequence()
        var items: [DeviceList.Device] = []
        for var device in devices {
            let user = try await store.user(actedAs: device.userID)
            var behind: Int?
            if let position = device.position, let user {
                behind = try await store.changesHeard(
                    by: ChangeAudience(userID: user.id, isAdmin: user.role == .admin), after: position.seq, of: position.timeline)
                // Another timeline: the position names a history that no longer exists.
                if behind == nil { device.position = nil }
            }
            items.append(DeviceList.Device(
                streamId: device.stream, userId: device.userID, email: user?.email, role: user?.role.rawValue,
                impersonated: device.sessionID.hasPrefix(TokenService.impersonationSessionPrefix) ? true : nil,
                openedAt: device.openedAt, openSeconds: max(0, Int(now.timeIntervalSince(device.openedAt))),
                cursorSeq: device.position?.seq, cursorFrom: device.position?.source.rawValue, cursorAt: device.position?.at,
                behind: behind))
        }
        return try JSONResponse.make(DeviceList(head: head, items: items))
    }

    private static func detail(_ reason: FeedExplanation.Reason, entity: FeedEntity, role: UserRecord.Role) -> String {
        switch reason {
        case .deleted: "It was deleted: the feed carried its tombstone."
        case .missing: "No such \(entity.name) exists, and the change log remembers none (never created, or pruned)."
        case .notOwn: "Only other users hold a \(entity.name) with this id; the feed carries each user's own."
        case .draft:
            entity.placement == .course
                ? "The course is a draft, seen only by its teacher and admins; this user is a \(role.rawValue) who is not its teacher."
                : "Its course is a draft, seen only by its teacher and admins; this user is a \(role.rawValue) who is not its teacher."
        case .unexplained: "The feed does not carry it, and none of its conditions says why: a defect, please report it."
        }
    }

    private func tenant(_ request: Request, _ context: EduGoRequestContext) async throws -> TenantStore {
        guard let id = TenantID(try request.pathParameter("id", context)) else { throw APIError.tenantNotFound }
        return try await deps.tenants.store(for: id)
    }
}
