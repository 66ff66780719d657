import GRDB
import Testing

@testable import ChirpServer

/// The migration `v20-search-lean-terms` (issue 37): messages indexed the old way (each word
/// for each person, then both people as `p<id>`) are indexed again without the people's own
/// terms, so that an unsend removes exactly what the index holds; the index merges in eights.
@Suite("Search lean terms migration")
struct SearchLeanTermsMigrationTests {
    static func matches(_ db: Database, _ query: String) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid", arguments: [query])
    }

    @Test func reindexesOldEntriesSoTheyAreFoundAndRemovedByTheNewTerms() throws {
        let queue = try DatabaseQueue()
        try SQLiteSchema.migrator.migrate(queue, upTo: "v19-group-join-marks")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at)
                        VALUES ('ann', 'ann', 'ann', 'x', 1), ('bob', 'bob', 'bob', 'x', 1);
                    INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at, deleted)
                        VALUES (1, 2, 1, 2, 'a', 'apple tart', 1, 0), (2, 1, 1, 2, 'b', 'gone', 2, 1);
                    INSERT INTO message_search (rowid, terms) VALUES (1, 'u1xapple u2xapple u1xtart u2xtart p1 p2');
                    """)
        }
        try SQLiteSchema.migrator.migrate(queue)
        try queue.write { db in
            #expect(try Self.matches(db, #""p1" OR "p2""#).isEmpty, "no entry holds the people's own terms")
            #expect(try Self.matches(db, #""u1xapple" AND "u1xtart""#) == [1])
            #expect(try Self.matches(db, #""u2xtart""#) == [1])
            #expect(try Self.matches(db, #""u1xgone" OR "u2xgone""#).isEmpty, "an unsent message stays out")
            // Merged in eights since v20; since v26 by the indexer, not inside each write.
            #expect(try Int.fetchOne(db, sql: "SELECT v FROM message_search_config WHERE k = 'usermerge'") == 8)
            #expect(try Int.fetchOne(db, sql: "SELECT v FROM message_search_config WHERE k = 'automerge'") == 0)
            try SQLiteMessageSearch.remove(db, messageId: 1, text: "apple tart", sender: 1, recipient: 2)
            #expect(
                try Self.matches(db, #""u1xapple" OR "u2xapple" OR "u1xtart" OR "u2xtart""#).isEmpty,
                "removed with the terms it was indexed with")
        }
    }
}
