import GRDB

/// The search indexes, part of the `v3-list-indexes` migration: an FTS5 table per searchable
/// table, kept in step with its rows by triggers, so a row is searchable in the very transaction
/// that writes it, whichever store method writes it.
///
/// Each is an external-content table (`content='courses'`): it holds the index only and reads
/// the text from the row it names by `rowid`. `courses` and `users` have a text primary key, so
/// their `rowid` is not an alias of it, and `VACUUM` may renumber it; the store never vacuums.
/// Whoever adds a `VACUUM` must follow it with each table's `'rebuild'` command (as below).
///
/// The tokenizer folds case and removes diacritics (`unicode61 remove_diacritics 2`), so
/// `matematicas` finds "Matemáticas"; ``FullTextQuery`` writes the `MATCH` expressions.
package enum SearchIndexMigration {
    /// Search tables, with the table they index and the columns searched.
    package static let tables: [(name: String, content: String, columns: [String])] = [
        courses, ("users_search", "users", ["first_name", "last_name", "email"]),
    ]

    /// The courses' search table.
    package static let courses = (name: "courses_search", content: "courses", columns: ["title", "description"])

    /// The lengths of word beginnings `courses_search` keeps an index of (FTS5's `prefix`
    /// option), from the `v8-search-prefixes` migration on.
    ///
    /// A search's last word is a beginning (``FullTextQuery``). Without an index of its length,
    /// FTS5 merges the whole row list of every word that begins so before it can answer anything,
    /// even a question about a few rows (``SearchWindow``): at 5,000 courses that all say
    /// "curso", about a tenth of a millisecond per search. With one, the beginning has a row list
    /// of its own, which it seeks like a whole word's. Beginnings longer than 8 characters name
    /// few words and are merged as before. Each word is indexed up to 8 more times: at 5,000
    /// courses the database grew from 3.1 to 3.65 MB, and a course insert (syncs off) took 99
    /// instead of 61 µs (measured with the system's SQLite 3.40).
    package static let coursePrefixLengths = "1 2 3 4 5 6 7 8"

    /// The `v8-search-prefixes` migration: `courses_search` made again with
    /// ``coursePrefixLengths``, and filled. Its triggers name it, so they stay.
    package static func addCoursePrefixes(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE \(courses.name)")
        try db.execute(sql: createTable(courses, prefixLengths: coursePrefixLengths))
        try db.execute(sql: "INSERT INTO \(courses.name)(\(courses.name)) VALUES ('rebuild')")
    }

    /// How many segments of one level a search table lets build up before merging them into
    /// one of the next level (FTS5's `automerge`, 4 unless set), from the `v9-search-merging`
    /// migration on.
    ///
    /// Each write adds a segment, and FTS5 finds a `rowid` range in a segment by reading its row
    /// list from the start: a search's first look among the newest rows (``SearchWindow``) read
    /// every segment up to its end, so it cost more the more courses there were. At 5,000 courses
    /// added one by one, the newest 84 rows' matches for `"curso"*` took 71 µs with merges at 4,
    /// 38 µs at 2, for an insert that took 30 instead of 26 µs (the system's SQLite 3.40, in memory).
    package static let automerge = 2

    /// The `v9-search-merging` migration: every search table merges at ``automerge``, and the
    /// segments written so far are merged into one.
    package static func mergeSooner(_ db: Database) throws {
        for table in tables {
            try db.execute(sql: "INSERT INTO \(table.name)(\(table.name), rank) VALUES ('automerge', \(automerge))")
            try db.execute(sql: "INSERT INTO \(table.name)(\(table.name)) VALUES ('optimize')")
        }
    }

    /// The statement making a search table, with an index of word beginnings of `prefixLengths`.
    private static func createTable(_ table: (name: String, content: String, columns: [String]), prefixLengths: String?) -> String {
        """
        CREATE VIRTUAL TABLE \(table.name) USING fts5(
            \(table.columns.joined(separator: ", ")), content='\(table.content)', content_rowid='rowid',
            tokenize='unicode61 remove_diacritics 2'\(prefixLengths.map { ", prefix='\($0)'" } ?? ""))
        """
    }

    package static func migrate(_ db: Database) throws {
        for table in tables {
            // The LIKE scans' folded copies of the text go: the search tables index the columns themselves.
            try db.execute(sql: "ALTER TABLE \(table.content) DROP COLUMN search_text")
            let columns = table.columns.joined(separator: ", ")
            let new = table.columns.map { "new.\($0)" }.joined(separator: ", ")
            let old = table.columns.map { "old.\($0)" }.joined(separator: ", ")
            try db.execute(
                sql: createTable(table, prefixLengths: nil) + """
                    ;
                    CREATE TRIGGER \(table.name)_after_insert AFTER INSERT ON \(table.content) BEGIN
                        INSERT INTO \(table.name)(rowid, \(columns)) VALUES (new.rowid, \(new));
                    END;
                    CREATE TRIGGER \(table.name)_after_delete AFTER DELETE ON \(table.content) BEGIN
                        INSERT INTO \(table.name)(\(table.name), rowid, \(columns)) VALUES ('delete', old.rowid, \(old));
                    END;
                    CREATE TRIGGER \(table.name)_after_update AFTER UPDATE OF \(columns) ON \(table.content) BEGIN
                        INSERT INTO \(table.name)(\(table.name), rowid, \(columns)) VALUES ('delete', old.rowid, \(old));
                        INSERT INTO \(table.name)(rowid, \(columns)) VALUES (new.rowid, \(new));
                    END;
                    INSERT INTO \(table.name)(\(table.name)) VALUES ('rebuild');
                    """)
        }
    }
}
