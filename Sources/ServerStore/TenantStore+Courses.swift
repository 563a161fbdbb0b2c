import Foundation
import GRDB

/// What a change to a course asks for: each member `nil` (or `.absent`) when the body left it out.
package struct CourseChanges: Sendable {
    package var title: String?
    package var description: String?
    package var category: String?
    package var thumbnailUrl: Patch<String> = .absent
    package var published: Bool?
    package var teacherId: String?

    package init(title: String? = nil, description: String? = nil, category: String? = nil, thumbnailUrl: Patch<String> = .absent, published: Bool? = nil, teacherId: String? = nil) {
        self.title = title
        self.description = description
        self.category = category
        self.thumbnailUrl = thumbnailUrl
        self.published = published
        self.teacherId = teacherId
    }
}

extension TenantStore {
    /// A page of the courses `identity` may see, newest first, optionally of one category and
    /// matching a search, each with its lesson count.
    ///
    /// Two statements whatever the page size when the list starts (the total, and the page with
    /// its lesson counts), one when it continues from `pagination.after` (no total), one more for
    /// a page asked for by number past the first, and for a search one or two more
    /// (``pageRows(_:_:)``); each prepared once per connection and reused
    /// (`cachedStatement`); ``CourseListQuery`` writes them.
    package func coursePage(
        visibleTo identity: Identity, category: String?, query: String?, pagination: Pagination
    ) async throws -> ListPage<CourseWithLessonCount> {
        let list = CourseListQuery(
            role: identity.role, userID: identity.userID, category: category, search: query,
            after: pagination.after, limit: pagination.limit, offset: pagination.offset)
        // Taken before the read's snapshot: a restore after it makes the total this read counts unkept.
        let epoch = database.listTotals.epoch
        return try await database.read { db in
            let total = try self.total(db, list.count, unless: pagination, epoch: epoch)
            return ListPage(rows: try self.pageRows(db, list), pagination: pagination, total: total)
        }
    }

    /// The page's rows, each with its order key. A page asked for by number continues from the
    /// key of the last row it skips (``CourseListQuery/skipped``). A search first looks among the
    /// newest rows (``SearchWindow``), and reads the set of every match only when they do not fill
    /// the page.
    private func pageRows(_ db: Database, _ list: CourseListQuery) throws -> [(item: CourseWithLessonCount, key: PageCursor)] {
        if let skipped = list.skipped {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: skipped.sql), arguments: skipped.arguments) else {
                return []  // the page starts past the list's end
            }
            // The key as stored, as a cursor carries it.
            let key = PageCursor(timestamp: try row.decode(atIndex: 0), id: try row.decode(atIndex: 1))
            return try pageRows(db, list.continuing(after: key))
        }
        if let statement = list.window, let size = list.windowSize {
            let rows = try Row.fetchCursor(db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
            guard let window = try SearchWindow(rows, asked: size) else { return [] }
            let page = try Self.rows(db, list.page(within: window))
            if page.count > list.limit || window.holdsEveryRow { return page }
        }
        return try Self.rows(db, list.page)
    }

    /// A page statement's rows, each with its order key.
    private static func rows(_ db: Database, _ page: ListStatement) throws -> [(item: CourseWithLessonCount, key: PageCursor)] {
        // Decoded by position while the cursor stands on each row (the page selects
        // `CourseRecord.selection` first), and the key taken from the row as stored.
        try Array(
            Row.fetchCursor(db.cachedStatement(sql: page.sql), arguments: page.arguments).map { row in
                let course = try CourseRecord(selected: row)
                return (
                    item: CourseWithLessonCount(course, lessonCount: try row.decode(atIndex: CourseRecord.selectionCount)),
                    key: PageCursor(timestamp: try CourseRecord.storedCreatedAt(selected: row), id: course.id)
                )
            })
    }

    /// A list's total, only when the list starts (a page continued from a cursor carries none),
    /// and counted once per change sequence (``ListTotals``), which is read in `db`'s transaction.
    /// `epoch` is the totals' ``EpochCache/epoch`` as it was before the transaction began.
    package func total(_ db: Database, _ count: ListStatement, unless pagination: Pagination, epoch: UInt64) throws -> Int? {
        guard pagination.after == nil else { return nil }
        let sequence = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'")) ?? 0
        let key = ListTotalKey(count, at: sequence)
        if let total = database.listTotals.value(for: key, readAt: epoch) { return total }
        let total = try Int.fetchOne(db.cachedStatement(sql: count.sql), arguments: count.arguments) ?? 0
        database.listTotals.store(total, for: key, readAt: epoch)
        return total
    }

    /// The course, if `identity` may see it (else not found).
    package func course(_ id: String, visibleTo identity: Identity) async throws -> CourseWithLessonCount {
        try await database.read { db in
            try Self.response(db, CourseAccess.fetchVisible(db, id: id, identity: identity))
        }
    }

    /// Inserts a new course that `identity` creates: a teacher for themselves, an admin for any
    /// teacher or admin of this tenant (students create none). The caller's role is read again in
    /// the write (it may have changed since authentication).
    package func createCourse(_ course: CourseRecord, by identity: Identity) async throws -> CourseWithLessonCount {
        guard identity.role.createsCourses else { throw StoreError.forbidden(.createCourse) }
        return try await database.writer.write { db in
            let role = try AdminGuard.currentRole(db, of: identity.userID)
            guard let role, role.createsCourses else { throw StoreError.forbidden(.createCourse) }
            if course.teacherId != identity.userID {
                guard role.choosesCourseTeachers else { throw StoreError.forbidden(.assignCourseTeacher) }
                try Self.requireTeacher(db, id: course.teacherId)
            }
            try course.insert(db)
            return CourseWithLessonCount(course, lessonCount: 0)
        }
    }

    /// Changes a course its teacher or an admin may edit, based on the version `base` names
    /// (stale → the conflict error carrying the current course); only an admin (as of this write)
    /// gives it another teacher. An update that changes nothing keeps the version.
    package func updateCourse(
        _ id: String, by identity: Identity, changes: CourseChanges, base: VersionPrecondition, now: Date
    ) async throws -> CourseWithLessonCount {
        try await database.writer.write { db in
            var course = try CourseAccess.fetchEditable(db, id: id, identity: identity)
            try base.check(currentVersion: course.version, current: Self.response(db, course))
            let before = course
            if let title = changes.title { course.title = title }
            if let description = changes.description { course.description = description }
            if let category = changes.category { course.category = category }
            changes.thumbnailUrl.apply(to: &course.thumbnailUrl)
            if let published = changes.published { course.published = published }
            if let teacherID = changes.teacherId, teacherID != course.teacherId {
                guard try AdminGuard.currentRole(db, of: identity.userID)?.choosesCourseTeachers == true else {
                    throw StoreError.forbidden(.assignCourseTeacher)
                }
                try Self.requireTeacher(db, id: teacherID)
                course.teacherId = teacherID
            }
            if !course.hasSameContent(as: before) {
                course.version += 1
                course.updatedAt = now
                try course.update(db)
            }
            return try Self.response(db, course)
        }
    }

    /// Deletes a course its teacher or an admin may edit, with its lessons, enrollments and progress.
    package func deleteCourse(_ id: String, by identity: Identity) async throws {
        try await database.writer.write { db in
            let course = try CourseAccess.fetchEditable(db, id: id, identity: identity)
            try course.delete(db)
        }
    }

    /// The course's representation, counting its lessons (a statement the connection keeps prepared).
    package static func response(_ db: Database, _ course: CourseRecord) throws -> CourseWithLessonCount {
        CourseWithLessonCount(course, lessonCount: try lessonCount(db, courseID: course.id))
    }

    /// How many lessons the course has (a statement the connection keeps prepared).
    package static func lessonCount(_ db: Database, courseID: String) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM lessons WHERE course_id = ?"), arguments: [courseID]) ?? 0
    }

    /// Lesson counts of the courses, in one statement (kept prepared, one for each number of courses).
    package static func lessonCounts(_ db: Database, courseIDs: [String]) throws -> [String: Int] {
        guard !courseIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT course_id, COUNT(*) AS n FROM lessons WHERE course_id IN (\(databaseQuestionMarks(count: courseIDs.count))) GROUP BY course_id"),
            arguments: StatementArguments(courseIDs))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Int) })
    }

    private static func requireTeacher(_ db: Database, id: String) throws {
        let role = try String.fetchOne(db, sql: "SELECT role FROM users WHERE id = ?", arguments: [id])
        guard role == "teacher" || role == "admin" else {
            throw StoreError.validation(field: "teacher_id", code: "invalid_value", message: "must be a teacher or admin of this tenant")
        }
    }
}

extension CourseRecord {
    package func hasSameContent(as other: CourseRecord) -> Bool {
        title == other.title && description == other.description && category == other.category
            && thumbnailUrl == other.thumbnailUrl && published == other.published && teacherId == other.teacherId
    }
}
