import Foundation
import GRDB
import Synchronization
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// One observer on a tenant's writer empties the caches a commit made stale (the pages when it
/// logged a change, the live sessions when it changed `users` or `sessions`, no other), before the
/// live streams' listener hears of that commit.
@Suite(.timeLimit(.minutes(2))) struct CommitObserverTests {
    /// What the listener found in the caches when it heard of one commit.
    struct Heard: Equatable {
        var pageKept: Bool
        var sessionKept: Bool
        var revoked: Set<String>
    }

    /// A listener that looks into the caches as each commit reaches it.
    final class Recorder: TenantCommitListener {
        let caches: TenantCaches
        /// The server's list pages, the caches' `changeDependent`.
        let pages: PageCache
        let heard = Mutex<[Heard]>([])

        init(_ caches: TenantCaches, pages: PageCache) {
            self.caches = caches
            self.pages = pages
        }

        func committed(_ tenant: TenantID, changes: [LoggedChange], revokedSessions: Set<String>, allSessionsSuspect: Bool) {
            let seen = Heard(
                pageKept: CommitObserverTests.holds(pages.lookup(Self.page)),
                sessionKept: CommitObserverTests.holds(caches.liveSessions.lookup(Self.session)),
                revoked: revokedSessions)
            heard.withLock { $0.append(seen) }
        }

        func replaced(_ tenant: TenantID) {}

        static let page = "page"
        static let session = LiveSessionKey(sessionID: "cached", userID: "u")

        /// Puts a page and a live session into the caches.
        func fill() {
            if case .miss(let epoch) = pages.lookup(Self.page) {
                pages.store(EncodedPage(body: Data("[]".utf8), entityTag: "\"p-0\""), for: Self.page, readAt: epoch)
            }
            if case .miss(let epoch) = caches.liveSessions.lookup(Self.session) {
                caches.liveSessions.store(SessionAndRoleTests.user(id: "u", email: "u@example.com"), for: Self.session, readAt: epoch)
            }
        }

        /// What the listener heard of the last commit, and what the caches hold now.
        func last() -> (heard: Heard?, pageKept: Bool, sessionKept: Bool) {
            (heard.withLock { $0.last }, CommitObserverTests.holds(pages.lookup(Self.page)),
             CommitObserverTests.holds(caches.liveSessions.lookup(Self.session)))
        }
    }

    static func holds<Key: Hashable & Sendable, Value: Sendable>(_ lookup: EpochCache<Key, Value>.Lookup) -> Bool {
        if case .hit = lookup { return true }
        return false
    }

    @Test("a change empties the pages and keeps the sessions, a revoked session the reverse; the listener hears each after its cache was emptied")
    func cachesEmptiedBeforeTheListenerHears() async throws {
        // Given a demo tenant whose writer tells a listener, and filled caches
        let pages = PageCache()
        let caches = TenantCaches(changeDependent: pages)
        let recorder = Recorder(caches, pages: pages)
        let database = try TenantDatabase.open(
            tenantID: try #require(TenantID("demo")), at: nil, caches: caches, commitListener: recorder)
        try await Seeder(passwords: PasswordHasher(cost: 4), now: Date()).seedDemo("demo", into: TenantStore(database))
        let userID = try #require(try await database.writer.read { db in try String.fetchOne(db, sql: "SELECT id FROM users LIMIT 1") })
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO sessions (id, user_id, created_at) VALUES ('s1', ?, ?)", arguments: [userID, Date()])
        }
        recorder.fill()

        // When a course's title changes (a logged change, no account touched)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE courses SET title = 'Renamed', version = version + 1 WHERE id = (SELECT id FROM courses LIMIT 1)")
        }

        // Then the pages were emptied before the listener heard, and the sessions kept
        var now = recorder.last()
        #expect(now.heard == Heard(pageKept: false, sessionKept: true, revoked: []))
        #expect(!now.pageKept && now.sessionKept)

        // When a session is revoked (no change logged)
        recorder.fill()
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE sessions SET revoked_at = ? WHERE id = 's1'", arguments: [Date()])
        }

        // Then the sessions were emptied before the listener heard of the revocation, and the pages kept
        now = recorder.last()
        #expect(now.heard == Heard(pageKept: true, sessionKept: false, revoked: ["s1"]))
        #expect(now.pageKept && !now.sessionKept)

        // When a transaction touches neither (an email token), nothing is emptied and nobody is told
        let heardBefore = recorder.heard.withLock { $0.count }
        recorder.fill()
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM email_tokens") }
        now = recorder.last()
        #expect(now.pageKept && now.sessionKept)
        #expect(recorder.heard.withLock { $0.count } == heardBefore)
    }

    @Test("a value read under an older epoch is neither answered nor kept, and the byte bound empties the cache")
    func epochAndCost() {
        let totals = ListTotals(capacity: 8)
        let key = ListTotalKey(ListStatement(sql: "SELECT COUNT(*) FROM courses", arguments: []), at: 3)
        let before = totals.epoch
        totals.store(5, for: key, readAt: before)
        #expect(totals.value(for: key, readAt: before) == 5)

        // A restore moves the epoch on: a reader whose snapshot began before it gets nothing
        totals.invalidate()
        #expect(totals.value(for: key, readAt: before) == nil)
        totals.store(6, for: key, readAt: before)
        #expect(totals.value(for: key, readAt: totals.epoch) == nil)

        // Pages count their bytes: a page that would pass the bound starts the cache again
        let pages = PageCache(capacity: 8, byteCapacity: 10)
        let six = EncodedPage(body: Data(count: 6), entityTag: "\"p-6\"")
        pages.store(six, for: "a", readAt: pages.epoch)
        pages.store(six, for: "a", readAt: pages.epoch)  // replacing a page does not count it twice
        #expect(Self.holds(pages.lookup("a")))
        pages.store(six, for: "b", readAt: pages.epoch)
        #expect(!Self.holds(pages.lookup("a")))
        #expect(Self.holds(pages.lookup("b")))
    }
}
