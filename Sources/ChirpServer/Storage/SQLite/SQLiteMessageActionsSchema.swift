import GRDB

/// The schema of message actions and search (API.md part 2), as SQLite migrations of their own.
enum SQLiteMessageActionsSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-actions-messages") { db in
            // A message's reply link, last edit and reactions (`ReactionsColumn`). (Databases
            // that ran an earlier form of this migration also got a search table, which v9
            // replaces.)
            try db.execute(
                sql: """
                    ALTER TABLE messages ADD COLUMN reply_to INTEGER;
                    ALTER TABLE messages ADD COLUMN edited_at INTEGER;
                    ALTER TABLE messages ADD COLUMN reactions TEXT;
                    """)
        }
        migrator.registerMigration("v9-search-lean") { db in
            // The search index (`SQLiteMessageSearch`): the message's `SearchTerms` for each of
            // its two people and the people themselves, written in the transaction that stores,
            // edits or unsends the message. Whole words only: the terms are already folded,
            // unicode61 with remove_diacritics 2 folds the query the same way.
            try db.execute(sql: "DROP TABLE IF EXISTS message_search")
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE message_search USING fts5(
                        terms, content = '', detail = none, columnsize = 0, tokenize = 'unicode61 remove_diacritics 2')
                    """)
            try indexEveryMessage(db)
        }
        migrator.registerMigration("v10-search-ascii") { db in
            // The same index with the `ascii` tokenizer, which never cuts a `SearchTerms`
            // word (issue 36: unicode61 cut some at letters its tables call marks), indexed again.
            try db.execute(sql: "DROP TABLE message_search")
            try db.execute(sql: SQLiteMessageSearch.createTable)
            try indexEveryMessage(db)
        }
    }

    /// Migrations of search after the groups' (`SQLiteSchema` registers them last).
    static func registerLeanSearch(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-search-lean-terms") { db in
            // Each word for each person only, without the two people's own terms, merged in
            // eights (`SQLiteMessageSearch`, issue 37), indexed again: the terms an entry is
            // removed with must be the ones it was indexed with.
            try db.execute(sql: "DROP TABLE message_search")
            try db.execute(sql: SQLiteMessageSearch.createTable)
            try db.execute(sql: SQLiteMessageSearch.mergeInEights)
            try indexEveryMessage(db)
        }
    }

    private static func indexEveryMessage(_ db: Database) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, text, sender_id, recipient_id FROM messages WHERE deleted = 0")
        while let row = try rows.next() {
            try SQLiteMessageSearch.add(db, messageId: row[0], text: row[1], sender: row[2], recipient: row[3])
        }
    }
}
