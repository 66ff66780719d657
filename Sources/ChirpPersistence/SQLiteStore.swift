import Foundation
internal import GRDB

/// One SQLite database file shared by the repositories of an app: a GRDB `DatabasePool` in WAL
/// mode (readers run while a write commits), foreign keys on, and the app's schema applied as
/// an ordered list of named migrations, each run once.
///
/// ```swift
/// let store = try SQLiteStore(path: "app.sqlite", migrations: [
///     .init(name: "v1", sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, updatedAt INTEGER NOT NULL)"),
/// ])
/// let notes = try SQLiteRepository<Note>(store: store)
/// ```
public final class SQLiteStore: Sendable {
    /// One step of the schema's history; `sql` may hold several statements.
    public struct Migration: Sendable, Hashable {
        /// A unique, stable name; never rename an applied migration.
        public var name: String
        /// The statements to run.
        public var sql: String

        /// Creates a migration.
        public init(name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// What a commit that returned survives.
    public enum Durability: Sendable, Hashable {
        /// The app being killed or crashing; a power cut may roll back the last commits, which
        /// makes each commit cheaper (`synchronous=NORMAL`, the log fsynced at checkpoints).
        case appCrash
        /// A power cut too: the log is fsynced at every commit (`synchronous=FULL`). For what
        /// the user made and has not been sent anywhere yet, such as an outbox.
        case powerLoss
    }

    let pool: DatabasePool
    /// The database file.
    public let path: String
    /// What a commit survives.
    public let durability: Durability

    /// Opens (creating if needed) the database and applies the migrations not yet applied.
    public init(path: String, migrations: [Migration], durability: Durability = .appCrash) throws {
        self.path = path
        self.durability = durability
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            if durability == .powerLoss {
                // Set on the writer after the pool is open: GRDB sets NORMAL there when it
                // enables WAL, after `prepareDatabase` has run.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            }
            var migrator = DatabaseMigrator()
            for migration in migrations {
                migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
            }
            try migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw PersistenceError.database(error.description)
        }
    }

    /// The writer connection's `PRAGMA synchronous` (1 NORMAL, 2 FULL), for tests.
    func writerSynchronousLevel() throws -> Int {
        try Self.mapErrors {
            try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        }
    }

    /// Names of the migrations applied so far, in order.
    public func appliedMigrations() throws -> [String] {
        try Self.mapErrors {
            try pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        }
    }

    /// Column names of a table, in declaration order (empty if there is no such table).
    func columns(of table: String) throws -> [String] {
        try Self.mapErrors {
            try pool.read { db in
                try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQLBuilder.quote(table)))").map { $0["name"] }
            }
        }
    }

    static func mapErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw PersistenceError.database(error.description)
        }
    }

    static func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw PersistenceError.database(error.description)
        }
    }
}
