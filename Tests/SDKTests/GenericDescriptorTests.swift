import Foundation
import GRDB
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// A resource only this suite knows: a learner's note on a course, cached under the course,
/// written under `note/<course>/<note>`, merged by its own rule.
struct Note: Codable, Sendable, Equatable {
    var id: String
    var courseId: String
    var text: String
    var stars: Int
    var pinned: Bool
    var version: Int
}

enum NoteResource: SyncedResource {
    static let type = ResourceType(rawValue: "note")
    static let removedWithCourse = CourseLink.parent
    static let keyIDCount: Int? = 2
    static let conflicts = ConflictRule(
        strategy: .merge, serverOwned: ["course_id"], monotonic: ["stars": .larger, "pinned": .either])

    static func entity(_ note: Note, courseID: String?, at date: Date) throws -> CachedEntity {
        try CachedEntity.make(note, kind: type, id: note.id, parentID: note.courseId, sortKey: note.id, version: note.version, at: date)
    }

    static func resourceKey(id: String, courseID: String?) -> ResourceKey? {
        courseID.map { ResourceKey(type, ids: [$0, id]) }
    }

    static func courseID(of key: ResourceKey) -> String? { key.ids.first }

    static func placeholder(for key: ResourceKey, at now: Date) -> Data? {
        JSONObject.encode(["id": key.ids.last ?? "", "course_id": key.ids.first ?? "", "text": "", "stars": 0, "pinned": false, "version": 0])
    }
}

/// The pull, the cache, the outbox's rebasing, the local view and the conflict merge are generic:
/// a resource none of them names goes through all of them with only its descriptor.
@Suite(.timeLimit(.minutes(1))) struct GenericDescriptorTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func note(_ id: String, text: String = "hola", stars: Int = 1, pinned: Bool = false, version: Int = 1) -> Note {
        Note(id: id, courseId: "c-1", text: text, stars: stars, pinned: pinned, version: version)
    }

    static func key(_ id: String) -> ResourceKey { ResourceKey(NoteResource.type, ids: ["c-1", id]) }

    static func write(_ id: String, _ body: [String: Any]) -> PendingWrite {
        PendingWrite(
            resource: key(id), operation: .update, endpoint: Endpoint(.patch, ["notes", id]), body: OfflineFixture.data(body))
    }

    static func notes(_ store: OfflineStore) async throws -> Cached<[Note]> {
        try await store.read(
            NoteResource.localValues(parentID: "c-1", writesUnder: ResourceKey.prefix(NoteResource.type, ids: ["c-1"]), now: { now }))
    }

    @Test("a pulled upsert and tombstone of an unnamed resource are cached and removed through its descriptor")
    func pullAppliesThroughDescriptor() async throws {
        let store = try OfflineStore.inMemory(tenantID: "t", userID: "u")
        let upsert = try PulledChange(NoteResource.self, id: "n-1", courseID: "c-1", upserting: Self.note("n-1"))

        _ = try await store.applyPull([upsert], after: nil, cursor: "1", replacing: false, finished: true, at: Self.now)

        #expect(try await store.read(NoteResource.localValues(parentID: "c-1")).value == [Self.note("n-1")])

        let tombstone = try PulledChange(NoteResource.self, id: "n-1", courseID: "c-1", upserting: nil)
        _ = try await store.applyPull([tombstone], after: "1", cursor: "2", replacing: false, finished: true, at: Self.now)

        #expect(try await store.read(NoteResource.localValues(parentID: "c-1")).value.isEmpty)
    }

    @Test("queued writes of an unnamed resource lay over its cached state, and a pull rebases them")
    func queuedWritesOverlayAndRebase() async throws {
        // Given a cached note, a queued edit of it and a queued edit of a note never cached
        let store = try OfflineStore.inMemory(tenantID: "t", userID: "u")
        let cached = try PulledChange(NoteResource.self, id: "n-1", courseID: "c-1", upserting: Self.note("n-1"))
        _ = try await store.applyPull([cached], after: nil, cursor: "1", replacing: false, finished: true, at: Self.now)
        _ = try await store.enqueue(Self.write("n-1", ["text": "local"]), key: "k-1", at: Self.now)
        _ = try await store.enqueue(Self.write("n-2", ["stars": 4]), key: "k-2", at: Self.now)

        // Then the view shows both edits, the second on the descriptor's placeholder
        let view = try await Self.notes(store)
        #expect(view.hasPendingWrites)
        #expect(view.value.map(\.text) == ["local", ""])
        #expect(view.value.map(\.stars) == [1, 4])

        // When a newer state of the first note is pulled
        let newer = try PulledChange(NoteResource.self, id: "n-1", courseID: "c-1", upserting: Self.note("n-1", stars: 3, version: 2))
        _ = try await store.applyPull([newer], after: "1", cursor: "2", replacing: false, finished: true, at: Self.now)

        // Then its queued write is rebased on it and still shows over it
        let bases = try await store.writer.read { db in
            try Int?.fetchAll(db, sql: "SELECT base_version FROM queued_writes WHERE resource = ?", arguments: [Self.key("n-1").description])
        }
        #expect(bases == [2])
        let after = try await Self.notes(store)
        #expect(after.value.first == Self.note("n-1", text: "local", stars: 3, version: 2))
    }

    @Test("a write's answer is cached through the descriptor, and an answer for another record is not")
    func cacheAppliesAnswers() async throws {
        let store = try OfflineStore.inMemory(tenantID: "t", userID: "u")
        let answer = try JSONCoding.encoder.encode(Self.note("n-1", text: "saved", version: 5))

        let (version, ignored) = try await store.writer.write { db in
            (
                try LocalCache.apply(db, NoteResource.self, resource: Self.key("n-1"), operation: .update, json: answer, at: Self.now),
                try LocalCache.apply(db, NoteResource.self, resource: Self.key("n-9"), operation: .update, json: answer, at: Self.now)
            )
        }

        #expect(version == 5)
        #expect(ignored == nil)
        #expect(try await store.read(NoteResource.localValue(id: "n-1"))?.value.text == "saved")
        #expect(try await store.read(NoteResource.localValue(id: "n-9")) == nil)
    }

    @Test("a conflict on an unnamed resource merges by its descriptor's rule")
    func mergeFollowsDescriptorRule() {
        // Given both sides changed the stars, this device alone the text, the server alone the pin
        let base = OfflineFixture.data(["id": "n-1", "course_id": "c-1", "text": "a", "stars": 1, "pinned": false, "version": 1])
        let server = OfflineFixture.data(["id": "n-1", "course_id": "c-1", "text": "a", "stars": 5, "pinned": true, "version": 2])
        let local = OfflineFixture.data(["text": "b", "stars": 2, "pinned": false, "course_id": "c-9"])

        let resolution = ConflictResolver.resolve(
            strategy: .merge, rule: NoteResource.conflicts, base: base, local: local, server: server, serverVersion: 2)

        // Then the larger stars (the rule's), the server's pin and the local text are sent, a
        // member the server owns is not
        guard case .resend(let body, let version) = resolution else {
            Issue.record("expected a resend, got \(resolution)")
            return
        }
        let sent = OfflineFixture.object(body)
        #expect(version == 2)
        #expect(sent["stars"] as? Int == 5)
        #expect(sent["pinned"] as? Bool == true)
        #expect(sent["text"] as? String == "b")
        #expect(sent["course_id"] == nil)
    }

    @Test("a policy without a strategy for a resource uses its descriptor's")
    func policyDefaultsToDescriptor() {
        var policy = ConflictPolicy()
        #expect(policy[.progress] == .merge)
        #expect(policy[.profile] == .merge)
        #expect(policy[.enrollment] == .serverWins)
        policy[.progress] = .manual
        #expect(policy.strategy(for: .progress(course: "c", lesson: "l")) == .manual)
    }
}
