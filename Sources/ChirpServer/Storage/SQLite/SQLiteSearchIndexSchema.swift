import GRDB

/// The mark of the SQLite search index (`SQLiteSearchIndexer`), as a migration of its own.
enum SQLiteSearchIndexSchema {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v21-search-index-mark") { db in
            // Every direct message up to `indexed_through` has been read by the indexer (and
            // indexed unless unsent); a message above it is not in the index yet, and search
            // reads it from `messages`. Until now messages were indexed as they were stored,
            // so all are.
            try db.execute(
                sql: """
                    CREATE TABLE search_index_mark (
                        only INTEGER PRIMARY KEY CHECK (only = 1),
                        indexed_through INTEGER NOT NULL
                    );
                    INSERT INTO search_index_mark (only, indexed_through) VALUES (1, COALESCE((SELECT MAX(id) FROM messages), 0));
                    """)
        }
    }

    /// The index merged by the indexer, not inside its writes (`SQLiteMessageSearch.mergesByTheIndexer`);
    /// registered after the push migration.
    static func registerIndexerMerges(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v26-search-merges-by-the-indexer") { db in
            for statement in SQLiteMessageSearch.mergesByTheIndexer { try db.execute(sql: statement) }
        }
    }
}
