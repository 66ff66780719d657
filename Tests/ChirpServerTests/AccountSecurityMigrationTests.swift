import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// The SQLite migration that gives sessions a public id and a last use keeps sessions made
/// before it working (they are listed with an id of their own).
@Suite("Account security migration")
struct AccountSecurityMigrationTests {
    @Test func sessionsFromBeforeTheMigrationGetAPublicIdAndALastUse() throws {
        let queue = try DatabaseQueue()
        try SQLiteSchema.migrator.migrate(queue, upTo: "v4-heads-from-events")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES ('ann', 'ann', 'ann', 'x', 1);
                    INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (x'01', 1, 1000, 9000), (x'02', 1, 2000, 9000);
                    """)
        }
        try SQLiteSchema.migrator.migrate(queue)
        let rows = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT public_id, last_used_at, created_at, user_agent FROM sessions ORDER BY created_at")
        }
        let ids = rows.compactMap { $0[0] as String? }
        #expect(ids.count == 2 && Set(ids).count == 2 && ids.allSatisfy { $0.count == 24 })
        #expect(rows.allSatisfy { ($0[1] as Int64) == ($0[2] as Int64) }, "last use starts at creation")
        #expect(rows.allSatisfy { ($0[3] as String?) == nil })
        let deleted = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages WHERE deleted <> 0")
        }
        #expect(deleted == 0)
    }
}
