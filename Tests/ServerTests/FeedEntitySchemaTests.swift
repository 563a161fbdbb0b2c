import Foundation
import GRDB
import Testing

@testable import EduGoServerStore

/// The change log's triggers are generated from the synced entities' descriptors: a new tenant
/// database holds exactly the generated ones, so no hand-written trigger can drift from them.
@Suite(.timeLimit(.minutes(1))) struct FeedEntitySchemaTests {
    @Test("every descriptor's table holds the generated triggers, as generated, and no other trigger logs a change")
    func everyDescriptorHasItsGeneratedTriggers() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("schema")), at: nil)
        let installed = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
                .map { (name: $0["name"] as String, table: $0["tbl_name"] as String, sql: $0["sql"] as String) }
        }
        let generated = FeedTriggers.triggers(for: FeedEntity.all)
        for trigger in generated {
            let found = installed.first { $0.name == trigger.name }
            #expect(found?.sql == trigger.sql, "\(trigger.name) is missing or differs from its generated SQL")
        }
        for entity in FeedEntity.all {
            for event in ["insert", "update", "delete"] {
                #expect(generated.contains { $0.name == "\(entity.table)_change_\(event)" }, "\(entity.name) logs no \(event)")
            }
        }
        let logging = installed.filter { $0.sql.contains("INSERT INTO changes") || $0.table == "courses" && $0.sql.contains("BEFORE DELETE") }
        #expect(Set(logging.map(\.name)) == Set(generated.map(\.name)), "a trigger on a synced table that no descriptor generated")
    }

    @Test("installing a registry's triggers again replaces them: the migration of a resource added later can call it")
    func installingAgainIsIdempotent() async throws {
        let database = try TenantDatabase.open(tenantID: try #require(TenantID("again")), at: nil)
        let count = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'"
        let before = try await database.writer.read { db in try Int.fetchOne(db, sql: count) }
        let after = try await database.writer.write { db in
            try FeedTriggers.migrate(db)
            return try Int.fetchOne(db, sql: count)
        }
        #expect(before == after)
    }
}
