import Foundation
import GRDB

/// Reads the local view of cached entities: the server's last state with pending outbox writes
/// laid over it, in order. What the repositories return and observe.
enum LocalView {
    static func courses(_ db: Database, category: String?, query: String?) throws -> Cached<[Course]> {
        let entities = try entities(db, kind: .course)
        var courses = try entities.map { try $0.decode(Course.self) }
        if let category { courses = courses.filter { $0.category == category } }
        if let query, !query.isEmpty {
            let needle = fold(query)
            courses = courses.filter { fold($0.title + " " + $0.description).contains(needle) }
        }
        return Cached(value: courses, hasPendingWrites: false, fetchedAt: entities.map(\.fetchedAt).min())
    }

    static func course(_ db: Database, id: String) throws -> Cached<Course>? {
        guard let entity = try entity(db, kind: .course, id: id) else { return nil }
        return Cached(value: try entity.decode(Course.self), hasPendingWrites: false, fetchedAt: entity.fetchedAt)
    }

    static func lessons(_ db: Database, courseID: String) throws -> Cached<[Lesson]> {
        let entities = try entities(db, kind: .lesson, parentID: courseID)
        return Cached(
            value: try entities.map { try $0.decode(Lesson.self) }, hasPendingWrites: false,
            fetchedAt: entities.map(\.fetchedAt).min())
    }

    static func enrolledCourseIDs(_ db: Database) throws -> Cached<Set<String>> {
        let entities = try entities(db, kind: .enrollment)
        var ids = Set(entities.map(\.id))
        let pending = try pending(db, prefix: "enrollment/")
        for item in pending {
            guard case .enrollment(let course) = item.resource else { continue }
            if item.operation == .delete { ids.remove(course) } else { ids.insert(course) }
        }
        return Cached(value: ids, hasPendingWrites: !pending.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }

    static func profile(_ db: Database) throws -> Cached<User>? {
        let server = try entity(db, kind: .profile, id: "me")
        let pending = try QueuedWrite.pending.filter(QueuedWrite.Columns.resource == ResourceKey.profile.description)
            .fetchAll(db).map { try $0.item() }
        guard let server, let json = overlay(server.json, pending) else { return nil }
        return Cached(
            value: try JSONCoding.decoder.decode(User.self, from: json), hasPendingWrites: !pending.isEmpty,
            fetchedAt: server.fetchedAt)
    }

    /// The progress of every lesson of `courseID` with a record or a queued write; a lesson with
    /// only queued writes starts from an empty record dated `now`.
    static func progress(_ db: Database, courseID: String, now: Date) throws -> Cached<[LessonProgress]> {
        let entities = try entities(db, kind: .progress, parentID: courseID)
        let pending = try pending(db, prefix: ResourceKey.progressPrefix(course: courseID))
        var byLesson: [String: Data] = [:]
        for entity in entities { byLesson[entity.sortKey] = entity.json }
        var lessonIDs = entities.map(\.sortKey)
        var itemsByLesson: [String: [OutboxItem]] = [:]
        for item in pending {
            guard case .progress(_, let lesson) = item.resource else { continue }
            itemsByLesson[lesson, default: []].append(item)
            if byLesson[lesson] == nil && !lessonIDs.contains(lesson) {
                lessonIDs.append(lesson)
                byLesson[lesson] = JSONObject.encode([
                    "lesson_id": lesson, "completed": false, "completed_at": NSNull(), "watched_seconds": 0, "version": 0,
                    "updated_at": ISO8601DateFormatter().string(from: now),
                ])
            }
        }
        let values = try lessonIDs.compactMap { lesson -> LessonProgress? in
            guard let json = overlay(byLesson[lesson], itemsByLesson[lesson] ?? []) else { return nil }
            return try JSONCoding.decoder.decode(LessonProgress.self, from: json)
        }
        return Cached(value: values, hasPendingWrites: !pending.isEmpty, fetchedAt: entities.map(\.fetchedAt).min())
    }

    /// The queued items whose stored resource starts with `prefix` (exactly, as a range of the
    /// resource's index: ``PrefixRange``), in queue order.
    static func pending(_ db: Database, prefix: String) throws -> [OutboxItem] {
        let range = PrefixRange(column: "resource", prefix: prefix)
        return try QueuedWrite
            .fetchAll(
                db, sql: "SELECT * FROM queued_writes WHERE \(range.sql) AND \(QueuedWrite.State.pendingSQL) ORDER BY id",
                arguments: range.arguments)
            .map { try $0.item() }
    }

    /// `server` with the bodies of `items` merged over it; `nil` when the last item deletes.
    static func overlay(_ server: Data?, _ items: [OutboxItem]) -> Data? {
        var current = server
        for item in items {
            if item.operation == .delete { current = nil; continue }
            current = JSONObject.merge(current ?? Data("{}".utf8), item.body)
        }
        return current
    }

    static func entities(_ db: Database, kind: CachedEntity.Kind, parentID: String? = nil) throws -> [CachedEntity] {
        var request = CachedEntity.filter(CachedEntity.Columns.kind == kind.rawValue)
        if let parentID { request = request.filter(CachedEntity.Columns.parentId == parentID) }
        return try request.order(CachedEntity.Columns.sortKey, CachedEntity.Columns.id).fetchAll(db)
    }

    static func entity(_ db: Database, kind: CachedEntity.Kind, id: String) throws -> CachedEntity? {
        try CachedEntity.fetchOne(db, key: ["kind": kind.rawValue, "id": id])
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
