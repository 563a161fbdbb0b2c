import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServerStore

/// A learner's note on a course, only its author's: a resource only this suite knows.
struct GenericNote: Codable, Sendable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "notes"
    var id: String
    var courseId: String
    var userId: String
    var text: String

    enum CodingKeys: String, CodingKey {
        case id, text
        case courseId = "course_id"
        case userId = "user_id"
    }
}

/// A notice pinned to a course, for everyone who may see the course: a second resource only this
/// suite knows, deleted before its course.
struct GenericNotice: Codable, Sendable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "notices"
    var id: String
    var courseId: String
    var text: String

    enum CodingKeys: String, CodingKey {
        case id, text
        case courseId = "course_id"
    }
}

/// What the tenant's commits told the live streams' hub.
final class GenericCommitRecorder: TenantCommitListener {
    let changes = Mutex<[LoggedChange]>([])

    func committed(_ tenant: TenantID, changes: [LoggedChange], revokedSessions: Set<String>, allSessionsSuspect: Bool) {
        self.changes.withLock { $0 += changes }
    }

    func replaced(_ tenant: TenantID) {}
}

/// A synced resource that only this suite knows, registered in a registry the suite builds, goes
/// through the change feed like the built-in ones: its triggers log it, the feed reads it, the
/// audience rule decides who hears of it, a delete is a tombstone and a live stream is told.
@Suite(.timeLimit(.minutes(1))) struct GenericFeedEntityTests {
    static let note = FeedEntity(
        name: "note", table: "notes", idColumn: "id", placement: .inCourse(column: "course_id"),
        audience: .owner(column: "user_id"), followsCourseVisibility: true, deletedBeforeCourse: false,
        fetch: FeedEntity.records(GenericNote.self) { ($0.id, $0.courseId) })
    static let notice = FeedEntity(
        name: "notice", table: "notices", idColumn: "id", placement: .inCourse(column: "course_id"),
        audience: .course, followsCourseVisibility: true, deletedBeforeCourse: true,
        fetch: FeedEntity.records(GenericNotice.self) { ($0.id, $0.courseId) })
    static let registry = FeedEntity.all + [note, notice]

    /// A tenant with the suite's tables and triggers: teacher `t` owns the published course
    /// `open` and the draft `draft`; `t2` is another teacher, `s1` and `s2` are students.
    struct Tenant {
        let database: TenantDatabase
        let recorder: GenericCommitRecorder

        init() throws {
            recorder = GenericCommitRecorder()
            database = try TenantDatabase.open(tenantID: try #require(TenantID("generic")), at: nil, commitListener: recorder)
            try database.writer.write { db in
                try db.execute(sql: """
                    CREATE TABLE notes (
                        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, text TEXT NOT NULL);
                    CREATE TABLE notices (
                        id TEXT PRIMARY KEY, course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE, text TEXT NOT NULL);
                    """)
                try FeedTriggers.migrate(db, entities: GenericFeedEntityTests.registry)
                for (id, role) in [("t", "teacher"), ("t2", "teacher"), ("s1", "student"), ("s2", "student")] {
                    try db.execute(
                        sql: """
                            INSERT INTO users (id, email, email_key, password_hash, first_name, last_name, role, created_at, updated_at)
                            VALUES (?, ?, ?, 'x', ?, 'Test', ?, 0, 0)
                            """,
                        arguments: [id, "\(id)@example.com", "\(id)@example.com", id, role])
                }
                for (id, published) in [("open", true), ("draft", false)] {
                    try db.execute(
                        sql: """
                            INSERT INTO courses (id, title, description, category, published, teacher_id, created_at, updated_at)
                            VALUES (?, ?, '', 'test', ?, 't', 0, 0)
                            """,
                        arguments: [id, id, published])
                }
            }
        }

        func write(_ sql: String, _ arguments: StatementArguments = []) throws {
            try database.writer.write { db in try db.execute(sql: sql, arguments: arguments) }
        }

        func head() throws -> Int64 {
            try database.writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
            }
        }

        /// What `user` acting as `role` pulls: a whole base sync, or the changes after `seq`.
        func pull(_ user: String, _ role: UserRecord.Role, after seq: Int64? = nil) throws -> [FeedChange] {
            try database.writer.read { db in
                let head = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
                let reader = ChangeFeedReader(db: db, userID: user, role: role, entities: GenericFeedEntityTests.registry)
                let mint: ChangeFeedReader.Mint = { seq, base in
                    ChangeCursor(tenant: "generic", user: user, role: role.rawValue, timeline: "", seq: seq, base: base)
                }
                guard let seq else { return try reader.basePage(from: nil, snapshot: head, head: head, limit: 500, mint: mint).changes }
                return try reader.deltaPage(after: seq, head: head, limit: 500, mint: mint).changes
            }
        }
    }

    private static func ids(_ changes: [FeedChange], _ entity: FeedEntity, tombstones: Bool = false) -> Set<String> {
        Set(changes.filter { $0.entity == entity.name && ($0.state == nil) == tombstones }.map(\.id))
    }

    @Test("its triggers log every insert, update and delete of its table")
    func triggersLogItsChanges() throws {
        let tenant = try Tenant()
        let before = try tenant.head()
        try tenant.write("INSERT INTO notices VALUES ('n1', 'open', 'Hello')")
        try tenant.write("UPDATE notices SET text = 'Hi' WHERE id = 'n1'")
        try tenant.write("DELETE FROM notices WHERE id = 'n1'")
        let logged = try tenant.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT entity || ':' || entity_id FROM changes WHERE seq > ? ORDER BY seq", arguments: [before])
        }
        #expect(logged == ["notice:n1", "notice:n1", "notice:n1"])
    }

    @Test("a base sync reads its rows as its descriptor reads them: a course's rows for whoever sees the course, an owner's rows for the owner only")
    func baseSyncReadsItsRows() throws {
        let tenant = try Tenant()
        try tenant.write("""
            INSERT INTO notes VALUES ('a', 'open', 's1', 'mine'), ('b', 'open', 's2', 'theirs'), ('c', 'draft', 't', 'plan');
            INSERT INTO notices VALUES ('n-open', 'open', 'Welcome'), ('n-draft', 'draft', 'Soon');
            """)
        let student = try tenant.pull("s1", .student)
        #expect(Self.ids(student, Self.note) == ["a"])
        #expect(Self.ids(student, Self.notice) == ["n-open"])
        #expect(student.first { $0.id == "a" }?.state as? GenericNote == GenericNote(id: "a", courseId: "open", userId: "s1", text: "mine"))
        let teacher = try tenant.pull("t", .teacher)
        #expect(Self.ids(teacher, Self.note) == ["c"])
        #expect(Self.ids(teacher, Self.notice) == ["n-open", "n-draft"])
        let order = student.map(\.entity).filter { [Self.note.name, Self.notice.name].contains($0) }
        #expect(order == ["note", "notice"], "a base sync reads the registry's entities in its order")
    }

    @Test("a delta carries a change of a row the caller hears of, a delete as a tombstone, and nothing of another's rows or a draft's")
    func deltaAudienceAndTombstones() throws {
        let tenant = try Tenant()
        try tenant.write("""
            INSERT INTO notes VALUES ('a', 'open', 's1', 'mine'), ('b', 'open', 's2', 'theirs');
            INSERT INTO notices VALUES ('n-open', 'open', 'Welcome'), ('n-draft', 'draft', 'Soon');
            """)
        let seq = try tenant.head()
        try tenant.write("UPDATE notes SET text = 'edited' WHERE id IN ('a', 'b')")
        try tenant.write("UPDATE notices SET text = 'edited'")
        try tenant.write("DELETE FROM notes WHERE id = 'a'")
        try tenant.write("DELETE FROM notices WHERE id = 'n-draft'")

        let student = try tenant.pull("s1", .student, after: seq)
        #expect(Self.ids(student, Self.note, tombstones: true) == ["a"])
        #expect(Self.ids(student, Self.note).isEmpty)
        #expect(Self.ids(student, Self.notice) == ["n-open"])
        #expect(!student.contains { $0.id == "b" || $0.id == "n-draft" }, "s2's note and the draft's notice reach no other student")
        let teacher = try tenant.pull("t", .teacher, after: seq)
        #expect(Self.ids(teacher, Self.notice, tombstones: true) == ["n-draft"])
        #expect(!teacher.contains { $0.entity == Self.note.name }, "a teacher hears of no student's own notes")
    }

    @Test("its rows follow their course: unpublishing is a tombstone for students, a draft handed over or deleted tells no student its ids")
    func rowsFollowTheirCourse() throws {
        let tenant = try Tenant()
        try tenant.write("""
            INSERT INTO notes VALUES ('a', 'open', 's1', 'mine'), ('d', 'draft', 's2', 'early');
            INSERT INTO notices VALUES ('n-open', 'open', 'Welcome'), ('n-draft', 'draft', 'Soon');
            """)
        let seq = try tenant.head()
        try tenant.write("UPDATE courses SET published = 0 WHERE id = 'open'")
        let unpublished = try tenant.pull("s1", .student, after: seq)
        #expect(Self.ids(unpublished, Self.note, tombstones: true) == ["a"])
        #expect(Self.ids(unpublished, Self.notice, tombstones: true) == ["n-open"])

        let handedOver = try tenant.head()
        try tenant.write("UPDATE courses SET teacher_id = 't2' WHERE id = 'draft'")
        #expect(try tenant.pull("s2", .student, after: handedOver).isEmpty, "a draft's hand-over reaches no student")
        #expect(Self.ids(try tenant.pull("t2", .teacher, after: handedOver), Self.notice) == ["n-draft"])
        #expect(Self.ids(try tenant.pull("t", .teacher, after: handedOver), Self.notice, tombstones: true) == ["n-draft"])

        let deleted = try tenant.head()
        try tenant.write("DELETE FROM courses WHERE id = 'draft'")
        #expect(try tenant.pull("s1", .student, after: deleted).isEmpty, "a deleted draft's rows reach no student")
        // Its owner hears of its own note's delete, as of its own enrollment's or progress's.
        #expect(try tenant.pull("s2", .student, after: deleted).map(\.id) == ["d"])
        #expect(Self.ids(try tenant.pull("t2", .teacher, after: deleted), Self.notice, tombstones: true) == ["n-draft"])
    }

    @Test("a live stream is told of a commit that logged its change exactly when the feed would carry it")
    func streamHearsWhatTheFeedCarries() throws {
        let tenant = try Tenant()
        let seq = try tenant.head()
        try tenant.write("""
            INSERT INTO notes VALUES ('a', 'open', 's1', 'mine'), ('b', 'open', 's2', 'theirs');
            INSERT INTO notices VALUES ('n-open', 'open', 'Welcome'), ('n-draft', 'draft', 'Soon');
            """)
        let told = tenant.recorder.changes.withLock { $0 }.filter { $0.seq > seq }
        #expect(told.count == 4)
        for user in ["s1", "s2", "t"] {
            let role: UserRecord.Role = user == "t" ? .teacher : .student
            let audience = ChangeAudience(userID: user, isAdmin: false, entities: Self.registry)
            let heard = Set(told.filter(audience.hears).map(\.seq))
            let logged = try tenant.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT seq, entity, entity_id FROM changes WHERE seq > ?", arguments: [seq])
            }
            let carried = Set(try tenant.pull(user, role, after: seq).map { "\($0.entity):\($0.id)" })
            let carriedSeqs = Set(logged.filter { carried.contains("\($0["entity"] as String):\($0["entity_id"] as String)") }.map { $0["seq"] as Int64 })
            #expect(heard == carriedSeqs, "\(user)")
            #expect(!heard.isEmpty)
        }
    }
}
