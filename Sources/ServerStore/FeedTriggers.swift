import GRDB

/// The triggers that log the changes of the feed's entities, generated from their descriptors.
///
/// Each entity's table logs its inserts, updates and deletes; the course's table also logs, when a
/// course is published, unpublished or handed over, the rows whose visibility follows it, and
/// deletes the rows that go before it. Every change is a row of `changes` written in the
/// transaction that makes it (``ChangeLog``), with its operation: `insert`, `update`, `delete`, or
/// `visibility` for a row whose visibility followed its course's.
package enum FeedTriggers {
    /// A trigger's name and its `CREATE TRIGGER` statement (as `sqlite_master` keeps it).
    package struct Trigger: Sendable, Equatable {
        package var name: String
        package var sql: String
    }

    /// Installs the triggers of the entities of `entities` whose table exists, replacing any of
    /// the same name: what migration `v14-feed-entities` runs, and what the migration that creates
    /// a new synced resource's table runs again after it.
    package static func migrate(_ db: Database, entities: [FeedEntity] = FeedEntity.all) throws {
        try install(entities.filter { try db.tableExists($0.table) }, in: db)
    }

    /// Replaces the triggers ``triggers(for:)`` generates for `entities`.
    package static func install(_ entities: [FeedEntity], in db: Database) throws {
        let triggers = triggers(for: entities)
        let course = entities.contains { $0.placement == .course } ? courseTriggerNames : []
        for name in Set(triggers.map(\.name) + course) {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)")
        }
        for trigger in triggers { try db.execute(sql: trigger.sql) }
    }

    /// Every trigger `entities` need, in the order they are installed.
    package static func triggers(for entities: [FeedEntity]) -> [Trigger] {
        var triggers = entities.flatMap(rowTriggers)
        if let course = entities.first(where: { $0.placement == .course }) {
            triggers += courseTriggers(course, members: entities)
        }
        return triggers
    }

    private static let insert = "INSERT INTO changes (entity, entity_id, course_id, user_id, draft_of, changed_at, op)"
    private static let now = "\(ChangeLog.sqlFunctionName)()"
    /// A course update that leaves it a draft: heard only by its teachers (old and new) and admins.
    private static let staysDraft = "OLD.published = 0 AND NEW.published = 0"
    private static let courseTriggerNames = ["courses_visibility_change", "courses_delete_members", "courses_delete_lessons"]

    /// The triggers logging the inserts, updates and deletes of `entity`'s table.
    private static func rowTriggers(_ entity: FeedEntity) -> [Trigger] {
        let events = [
            ("insert", "INSERT", "NEW"),
            ("update", "UPDATE" + (entity.changeColumns.map { " OF " + $0.joined(separator: ", ") } ?? ""), "NEW"),
            ("delete", "DELETE", "OLD"),
        ]
        return events.map { operation, event, row in
            let name = "\(entity.table)_change_\(operation)"
            if entity.placement == .course, operation == "update" { return courseUpdateTrigger(entity, name: name) }
            return Trigger(name: name, sql: """
                CREATE TRIGGER \(name) AFTER \(event) ON \(entity.table) BEGIN
                    \(insert) VALUES (\(values(entity, row: row)), \(now), '\(operation)');
                END
                """)
        }
    }

    /// The logged columns (entity, id, course, owner, draft) of `entity`'s row `row` (`NEW` or `OLD`).
    private static func values(_ entity: FeedEntity, row: String) -> String {
        let draftOf: String
        switch (entity.placement, entity.audience) {
        case (.course, _):
            draftOf = "CASE WHEN \(row).published = 0 THEN \(row).teacher_id END"
        case (.inCourse(let column), .course):
            draftOf = "(SELECT CASE WHEN published = 0 THEN teacher_id END FROM courses WHERE id = \(row).\(column))"
        default:
            draftOf = "NULL"
        }
        let course = entity.courseColumn.map { "\(row).\($0)" } ?? "NULL"
        let owner = entity.ownerColumn.map { "\(row).\($0)" } ?? "NULL"
        return "'\(entity.name)', \(row).\(entity.idColumn), \(course), \(owner), \(draftOf)"
    }

    /// A course's update. A change that stays inside a draft is heard by the draft's teacher and
    /// admins only; a draft handed to another teacher (still a draft) is logged twice, once with
    /// `draft_of` naming the old teacher (who hears of losing it) and once naming the new one.
    private static func courseUpdateTrigger(_ course: FeedEntity, name: String) -> Trigger {
        let id = course.idColumn
        return Trigger(name: name, sql: """
            CREATE TRIGGER \(name) AFTER UPDATE ON \(course.table) BEGIN
                \(insert) VALUES ('\(course.name)', NEW.\(id), NEW.\(id), NULL, CASE WHEN \(staysDraft) THEN NEW.teacher_id END, \(now), 'update');
                \(insert) SELECT '\(course.name)', NEW.\(id), NEW.\(id), NULL, OLD.teacher_id, \(now), 'update'
                    WHERE \(staysDraft) AND OLD.teacher_id IS NOT NEW.teacher_id;
            END
            """)
    }

    /// The course-level triggers: who may see a course's rows follows the course, so its
    /// publishing, unpublishing or hand-over logs them; and the rows that go before it.
    ///
    /// Of a draft's rows (before and after the change) only those its teachers hear are logged:
    /// nobody else sees a draft's rows before or after.
    private static func courseTriggers(_ course: FeedEntity, members: [FeedEntity]) -> [Trigger] {
        var triggers: [Trigger] = []
        let following = members.compactMap { member -> String? in
            guard member.followsCourseVisibility, case .inCourse(let column) = member.placement else { return nil }
            let select = "\(insert) SELECT '\(member.name)', \(member.idColumn), \(column)"
            switch member.audience {
            case .course:
                return """
                    \(select), NULL, CASE WHEN \(staysDraft) THEN NEW.teacher_id END, \(now), 'visibility'
                            FROM \(member.table) WHERE \(column) = NEW.id;
                        \(select), NULL, OLD.teacher_id, \(now), 'visibility'
                            FROM \(member.table) WHERE \(column) = NEW.id AND \(staysDraft);
                    """
            case .owner(let owner):
                return """
                    \(select), \(owner), NULL, \(now), 'visibility' FROM \(member.table)
                            WHERE \(column) = NEW.id AND NOT (\(staysDraft) AND \(owner) NOT IN (OLD.teacher_id, NEW.teacher_id));
                    """
            }
        }
        if !following.isEmpty {
            triggers.append(Trigger(name: "courses_visibility_change", sql: """
                CREATE TRIGGER courses_visibility_change AFTER UPDATE OF published, teacher_id ON \(course.table)
                WHEN OLD.published IS NOT NEW.published OR OLD.teacher_id IS NOT NEW.teacher_id BEGIN
                    \(following.joined(separator: "\n    "))
                END
                """))
        }
        let first = members.compactMap { member -> String? in
            guard member.deletedBeforeCourse, case .inCourse(let column) = member.placement else { return nil }
            return "DELETE FROM \(member.table) WHERE \(column) = OLD.id;"
        }
        if !first.isEmpty {
            triggers.append(Trigger(name: "courses_delete_members", sql: """
                CREATE TRIGGER courses_delete_members BEFORE DELETE ON \(course.table) BEGIN
                    \(first.joined(separator: "\n    "))
                END
                """))
        }
        return triggers
    }
}
