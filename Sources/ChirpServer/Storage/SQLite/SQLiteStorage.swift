import ChirpModels
import Foundation
import GRDB
import Logging

/// `ChirpStorage` on one SQLite file: a GRDB `DatabasePool` in WAL mode (readers never wait for
/// the writer), foreign keys on, `synchronous=FULL` so that a commit that returned survives a
/// crash or power loss, writes grouped into shared transactions by a `WriteCoalescer`, the
/// log written in one write per commit (`WALWriteGathering`) and checkpointed beside the
/// writer by a `WALCheckpointer`.
final class SQLiteStorage: ChirpStorage {
    let pool: DatabasePool
    let writer: WriteCoalescer
    private let checkpointer: WALCheckpointer
    /// Held shared while the storage is open, so a restore never replaces the files under it.
    private let directoryLock: DataDirectoryLock
    private let logger: Logger
    /// Indexes sent messages for search; nil only for the bench's measurement of the index.
    let searchIndexer: SQLiteSearchIndexer?

    /// Opens (creating if needed) the database at `url` and migrates it to the current schema.
    /// Sent messages are indexed for search every `searchIndexPeriod` (nil: only when a test
    /// asks, `searchIndexer.catchUp()`), unless `indexesSends` is false.
    init(
        url: URL, logger: Logger = Logger(label: "chirp.sqlite"), indexesSends: Bool = true,
        searchIndexPeriod: Duration? = .milliseconds(100)
    ) throws {
        self.logger = logger
        directoryLock = try DataDirectoryLock(directory: url.deletingLastPathComponent(), mode: .shared)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Only a new, empty database takes the page size (an existing one keeps its own).
            // Sends touch many small rows on different pages; with 1 KiB pages each touched
            // page costs a quarter of the log writes 4 KiB pages do (+25 % sends/s measured).
            try db.execute(sql: "PRAGMA page_size = \(Self.newDatabasePageSize)")
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? Self.newDatabasePageSize
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.backstopBytes / pageSize)")
        }
        pool = try DatabasePool(path: WALWriteGathering.databasePath(url.path), configuration: configuration)
        // GRDB switches a pool's writer to `synchronous=NORMAL` when it turns WAL on, after
        // `prepareDatabase` has run: set FULL here, on the writer, or commits are not fsynced.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try SQLiteSchema.migrator.migrate(pool)
        writer = WriteCoalescer(pool: pool)
        checkpointer = try WALCheckpointer(path: url.path)
        searchIndexer =
            indexesSends ? SQLiteSearchIndexer(writer: writer, period: searchIndexPeriod, logger: logger) : nil
    }

    /// The page size a new database file is created with.
    static let newDatabasePageSize = 1024

    /// Runs `operation` in the next group commit (`WriteCoalescer`). When the database cannot
    /// take writes (disk full, I/O error, out of memory, locked past the busy timeout,
    /// read-only, damaged) it throws `StorageError.unavailable` (the API answers a 503 with
    /// `Retry-After`, which clients retry with the same ids), and the cause goes to the log;
    /// the failed batch leaves nothing behind.
    func write<T: Sendable>(_ operation: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(operation)
        } catch let error as DatabaseError where Self.meansUnavailable(error) {
            throw unavailable(error, "the database cannot take writes")
        }
    }

    /// Runs `operation` on one of the pool's readers, with the same answer as `write` when the
    /// database cannot serve it (an I/O error, a damaged file): `StorageError.unavailable`, and
    /// the cause logged.
    func read<T: Sendable>(_ operation: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(operation)
        } catch let error as DatabaseError where Self.meansUnavailable(error) {
            throw unavailable(error, "the database cannot serve reads")
        }
    }

    private func unavailable(_ error: DatabaseError, _ what: Logger.Message) -> StorageError {
        logger.error(what, metadata: ["code": "\(error.extendedResultCode)", "message": "\(error.message ?? "")"])
        return StorageError.unavailable(cause: "\(error.extendedResultCode): \(error.message ?? "")")
    }

    /// Whether an SQLite error is the database's condition rather than the request's.
    static func meansUnavailable(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_READONLY,
            .SQLITE_CANTOPEN,
            .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return true
        default:
            return false
        }
    }

    // MARK: shared helpers

    /// A statement written once for both databases (`GroupSQL`, `FollowSQL`, `BlockSQL`,
    /// `AccountDeletionSQL`, `StorageSQL`) with its `$n` parameters as SQLite's numbered `?n`.
    /// Byte for byte: Foundation's `replacingOccurrences` took about 25 µs for a statement of
    /// 400 characters, and a group send converts four.
    static func sharedSQL(_ sql: String) -> String {
        String(decoding: sql.utf8.map { $0 == UInt8(ascii: "$") ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }

    /// Runs `statements`, SQL shared with PostgreSQL (`$N` read as `?N`), with the same
    /// `arguments` each.
    static func run(_ db: Database, _ statements: [String], _ arguments: StatementArguments) throws {
        for statement in statements { try db.cachedStatement(sql: sharedSQL(statement)).execute(arguments: arguments) }
    }

    /// Appends one event to a user's stream (with the user's next seq) and returns it.
    static func appendEvent(
        _ db: Database, userId: Int64, type: String, json: String, at: Timestamp
    ) throws -> AppendedEvent {
        try appendEvents(db, userIds: [userId], type: type, json: json, at: at)[0]
    }

    /// Users whose events one pair of statements appends (a tweet's audience goes in chunks).
    static let appendChunk = 64

    /// For 1...`appendChunk` users: the statement that reads their streams' heads (one column
    /// each, in order) and the one that inserts an event for each, written once.
    private static let appendSQL: [(heads: String, insert: String)] = (1...appendChunk).map { count in
        let heads = (1...count).map { "(SELECT MAX(seq) FROM events WHERE user_id = ?\($0))" }.joined(separator: ", ")
        // Each row's user and seq, then the type, time, data and message all rows share,
        // bound once (`eventArguments`).
        let shared = (1...4).map { ", ?\(2 * count + $0)" }.joined()
        let rows = (0..<count).map { "(?\(2 * $0 + 1), ?\(2 * $0 + 2)\(shared))" }.joined(separator: ", ")
        return (
            "SELECT \(heads)", "INSERT INTO events (user_id, seq, type, created_at, data, message_id) VALUES \(rows)"
        )
    }

    /// Appends one event with the same content to each of these users' streams (distinct
    /// ids), two statements per `appendChunk` users; returns them in the order of `userIds`.
    /// With `messageId` the rows store a reference to that message instead of `json` (which
    /// must be its JSON); `events(userId:since:limit:)` reads the message back instead.
    static func appendEvents(
        _ db: Database, userIds: [Int64], type: String, json: String, at: Timestamp, messageId: Int64? = nil
    ) throws -> [AppendedEvent] {
        if userIds.isEmpty { return [] }
        guard userIds.count <= appendChunk else {
            return try stride(from: 0, to: userIds.count, by: appendChunk).flatMap { start in
                try appendEvents(
                    db, userIds: Array(userIds[start..<min(start + appendChunk, userIds.count)]), type: type,
                    json: json, at: at,
                    messageId: messageId)
            }
        }
        // Reading the heads touches the pages the insert writes next, and a rolled-back
        // savepoint takes its seqs back with its rows.
        let heads = try streamHeads(db, userIds: userIds)
        let events = userIds.indices.map { index -> AppendedEvent in
            AppendedEvent(
                userId: userIds[index], event: StoredEvent(seq: heads[index] + 1, type: type, createdAt: at, json: json)
            )
        }
        try db.cachedStatement(sql: appendSQL[userIds.count - 1].insert)
            .execute(
                arguments: eventArguments(
                    events, type: type, at: at, storedJSON: messageId == nil ? json : "", messageId: messageId))
        return events
    }

    /// Appends one event to each of these users' streams whose data, `json`, is stored once
    /// (`event_payloads`) and named by every row, so that what it stores grows with the users,
    /// not with the users times the data (a group's `group.updated`, whose Group lists every
    /// member). The events read it back through `payload_id`.
    static func appendSharedEvents(
        _ db: Database, userIds: [Int64], type: String, json: String, at: Timestamp
    ) throws -> [AppendedEvent] {
        if userIds.count < 2 { return try appendEvents(db, userIds: userIds, type: type, json: json, at: at) }
        try db.cachedStatement(sql: "INSERT INTO event_payloads (data) VALUES (?)").execute(arguments: [json])
        let payload = db.lastInsertedRowID
        let insert = try db.cachedStatement(
            sql: "INSERT INTO events (user_id, seq, type, created_at, data, payload_id) VALUES (?, ?, ?, ?, '', ?)")
        var appended: [AppendedEvent] = []
        appended.reserveCapacity(userIds.count)
        for start in stride(from: 0, to: userIds.count, by: appendChunk) {
            let chunk = Array(userIds[start..<min(start + appendChunk, userIds.count)])
            for (userId, head) in zip(chunk, try streamHeads(db, userIds: chunk)) {
                try insert.execute(arguments: [userId, head + 1, type, at.millisecondsSince1970, payload])
                appended.append(
                    AppendedEvent(
                        userId: userId, event: StoredEvent(seq: head + 1, type: type, createdAt: at, json: json)))
            }
        }
        return appended
    }

    /// The insert's arguments: each event's user and seq, then what they share. A direct
    /// message's two events are bound from an array literal, which GRDB turns into arguments
    /// in its own (specialized) code: its initializer for a sequence, called from here, took
    /// about 1,100 instructions a value (`scripts/count-send-instructions`).
    private static func eventArguments(
        _ events: [AppendedEvent], type: String, at: Timestamp, storedJSON: String, messageId: Int64?
    ) -> StatementArguments {
        let time = at.millisecondsSince1970
        if events.count == 2 {
            return [
                events[0].userId, events[0].event.seq, events[1].userId, events[1].event.seq, type, time, storedJSON,
                messageId,
            ]
        }
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(events.count * 2 + 4)
        for item in events {
            values.append(item.userId)
            values.append(item.event.seq)
        }
        values += [type, time, storedJSON, messageId]
        return StatementArguments(values)
    }

    /// The seq of the newest event in each of these users' streams (0 for none), in order, for
    /// 1...`appendChunk` users. Events are never deleted, so the newest is the stream's head.
    static func streamHeads(_ db: Database, userIds: [Int64]) throws -> [Int64] {
        // Arguments as optional existentials: GRDB's initializer for a typed sequence maps it
        // with a key path that the runtime resolves again on every call. A direct message's
        // pair from a literal (`eventArguments`).
        let arguments: StatementArguments =
            userIds.count == 2
            ? [userIds[0], userIds[1]] : StatementArguments(userIds.map { $0 as (any DatabaseValueConvertible)? })
        guard
            let heads = try ColumnCursor.only(
                db.cachedStatement(sql: appendSQL[userIds.count - 1].heads), arguments: arguments,
                read: { row in
                    (0..<Int32(userIds.count)).map { row.int64($0) }
                })
        else { throw DatabaseError(message: "no row of stream heads") }
        return heads
    }

    /// The id of the user with that username key, if any.
    static func userId(_ db: Database, key: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM users WHERE username_key = ?"), arguments: [key])
    }

    // MARK: events

    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventRows {
        try await read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: Self.eventsSQL), arguments: [userId, since, limit])
            let head = try Self.streamHeads(db, userIds: [userId])[0]
            return EventRows(events: try rows.map(EventColumns.eventRow(from:)), head: head)
        }
    }

    func streamHeads(userIds: [Int64]) async throws -> [Int64: Int64] {
        guard !userIds.isEmpty else { return [:] }
        let ids = "[" + userIds.map(String.init).joined(separator: ",") + "]"
        return try await read { db in
            // One JSON array argument, so one cached statement serves any count; each head is
            // one index seek.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT j.value AS id, (SELECT MAX(seq) FROM events WHERE user_id = j.value) AS head
                        FROM json_each(?) j
                        """),
                arguments: [ids])
            return Dictionary(rows.map { ($0["id"] as Int64, ($0["head"] as Int64?) ?? 0) }, uniquingKeysWith: max)
        }
    }

    /// A stream's events (`EventSQL.stream`), in SQLite's parameters.
    private static let eventsSQL = sharedSQL(EventSQL.stream(of: "$1"))
}
