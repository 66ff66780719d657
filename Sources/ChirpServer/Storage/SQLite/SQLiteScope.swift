import ChirpModels
import Foundation
import GRDB

/// `StorageScope` on one GRDB connection, inside the closure of a read or a write (its group
/// commit's savepoint); used only on that connection's queue (`InlineTaskRunner`).
struct SQLiteScope: StorageScope, @unchecked Sendable {
    let db: Database
    /// The group commit this scope's write is in: search index changes wait for the end of
    /// its batch (`WriteCoalescer.atBatchEnd`), one FTS5 segment for the batch. Nil in a read.
    var writer: WriteCoalescer? = nil
    /// The search indexer a write tells of a stored message. Nil in a read.
    var indexer: SQLiteSearchIndexer? = nil

    var dialect: SQLDialect { .sqlite }

    func query(_ sql: String, _ values: [SQLValue]) async throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: SQLiteStorage.sharedSQL(sql)), arguments: Self.arguments(values))
    }

    /// GRDB keeps every statement of the connection prepared (`cachedStatement`).
    func query<S: PreparedSQL>(_ statement: S.Type, _ values: [SQLValue]) async throws -> [Row] {
        try await query(S.sql, values)
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) async throws -> Int {
        try db.cachedStatement(sql: SQLiteStorage.sharedSQL(sql)).execute(arguments: Self.arguments(values))
        return db.changesCount
    }

    /// The next id of the one message sequence (direct messages' `AUTOINCREMENT`), taken for a
    /// group message or a join mark (`GroupSQL.addMember`): a direct send after it gets a larger one.
    func nextMessageId() throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', (SELECT COALESCE(MAX(id), 0) FROM messages)
                WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages')
                """
        ).execute()
        try db.cachedStatement(sql: "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'messages'").execute()
        guard
            let id = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'messages'"))
        else { throw StorageError.inconsistent("the message sequence is missing") }
        return id
    }

    /// One writer at a time: nothing to lock.
    func lockUsers(_ ids: [Int64]) async throws {}

    @discardableResult
    func appendEvents(userIds: [Int64], type: String, json: String, at: Timestamp, stored: StoredEventData)
        async throws -> [AppendedEvent]
    {
        switch stored {
        case .copy: try SQLiteStorage.appendEvents(db, userIds: userIds, type: type, json: json, at: at)
        case .shared: try SQLiteStorage.appendSharedEvents(db, userIds: userIds, type: type, json: json, at: at)
        case .message(let id):
            try SQLiteStorage.appendEvents(db, userIds: userIds, type: type, json: json, at: at, messageId: id)
        }
    }

    /// The id is taken first (`nextMessageId`); the search indexer reads the
    /// message after the commit (`SQLiteSearchIndexer.noteStored`).
    func insertGroupMessage(_ new: NewGroupMessage) async throws -> Int64 {
        let id = try nextMessageId()
        try await run(
            Self.insertGroupMessageSQL, new.groupId, new.sender.id, new.clientMessageId, new.text, new.createdAt,
            new.replyTo, new.mediaJSON, new.envelopeJSON, id)
        indexer?.noteStored()
        return id
    }

    private static let insertGroupMessageSQL = GroupSQL.insertMessage(id: "$9")

    func unindexMessages(where condition: String, _ argument: Int64) async throws {
        let entries = try SQLiteMessageSearch.entries(db, where: SQLiteStorage.sharedSQL(condition), [argument])
        guard !entries.isEmpty else { return }
        try atBatchEnd { db in for entry in entries { try entry.remove(from: db) } }
    }

    func indexMessage(_ id: Int64, text: String) async throws {
        // Above the index's mark the indexer reads the message as it is then.
        guard let entry = try SQLiteMessageSearch.entries(db, where: "id = ?", [id]).first else { return }
        try atBatchEnd { db in try SQLiteMessageSearch.add(db, messageId: id, text: text, owner: entry.owner) }
    }

    /// Runs `work` at the end of this write's batch, or now outside a group commit.
    private func atBatchEnd(_ work: @escaping @Sendable (Database) throws -> Void) throws {
        guard let writer else { return try work(db) }
        writer.atBatchEnd(work)
    }

    /// GRDB's arguments for `values`, a list of ids as a JSON array (`SQLDialect.isAny`).
    static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(
            values.map { value -> (any DatabaseValueConvertible)? in
                switch value {
                case .integer(let integer): integer
                case .text(let text): text
                case .boolean(let boolean): boolean
                case .integers(let integers): "[" + integers.map(String.init).joined(separator: ",") + "]"
                case .bytes(let bytes): Data(bytes)
                case .null: nil
                }
            })
    }
}

extension Row: StorageRow {
    func has(_ column: String) -> Bool { hasColumn(column) }

    private func checked(_ column: String) throws -> String {
        guard hasColumn(column) else { throw StorageError.inconsistent("no column \(column) in the row") }
        return column
    }

    private func required<T: DatabaseValueConvertible>(_ column: String) throws -> T {
        guard let value = self[try checked(column)] as T? else {
            throw StorageError.inconsistent("column \(column) is NULL")
        }
        return value
    }

    func isNull(_ column: String) throws -> Bool { (self[try checked(column)] as DatabaseValue).isNull }
    func int64(_ column: String) throws -> Int64 { try required(column) }
    func text(_ column: String) throws -> String { try required(column) }
    func bool(_ column: String) throws -> Bool { try required(column) }

    func columnName(_ index: Int) throws -> String {
        guard index < count else { throw StorageError.inconsistent("no column \(index) in the row") }
        return columnNames[columnNames.index(columnNames.startIndex, offsetBy: index)]
    }
}

extension SQLiteStorage: StorageEngine {
    func reading<T: Sendable>(_ body: @escaping @Sendable (SQLiteScope) async throws -> T) async throws -> T {
        try await read { db in
            let scope = SQLiteScope(db: db)
            return try InlineTaskRunner.run { try await body(scope) }
        }
    }

    func writing<T: Sendable>(_ body: @escaping @Sendable (SQLiteScope) async throws -> T) async throws -> T {
        let (writer, indexer) = (self.writer, self.searchIndexer)
        return try await write { db in
            let scope = SQLiteScope(db: db, writer: writer, indexer: indexer)
            return try InlineTaskRunner.run { try await body(scope) }
        }
    }
}
