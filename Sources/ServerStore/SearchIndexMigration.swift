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
        ("courses_search", "courses", ["title", "description"]),
        ("users_search", "users", ["first_name", "last_name", "email"]),
    ]

    package static func migrate(_ db: Database) throws {
        for table in tables {
            // The LIKE scans' folded copies of the text go: the search tables index the columns themselves.
            try db.execute(sql: "ALTER TABLE \(table.content) DROP COLUMN search_text")
            let columns = table.columns.joined(separator: ", ")
            let new = table.columns.map { "new.\($0)" }.joined(separator: ", ")
            let old = table.columns.map { "old.\($0)" }.joined(separator: ", ")
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE \(table.name) USING fts5(
                        \(columns), content='\(table.content)', content_rowid='rowid',
                        tokenize='unicode61 remove_diacritics 2');
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
