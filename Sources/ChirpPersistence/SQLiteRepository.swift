import Foundation
internal import GRDB

/// A `Repository` on a table of a `SQLiteStore`. The table (named by `Record.tableName`, with
/// a primary key or unique `id` column) comes from the store's migrations.
public final class SQLiteRepository<Record: StoredRecord>: Repository {
    private let store: SQLiteStore
    private let columns: [String]
    private let upsertSQL: String
    private var table: String { Record.tableName }

    /// A repository on `Record.tableName` of the store; fails if the table or its `id` column is missing.
    public init(store: SQLiteStore) throws {
        self.store = store
        columns = try store.columns(of: Record.tableName)
        guard columns.contains("id") else {
            throw PersistenceError.database(
                "table \(Record.tableName) is missing or has no id column; add it in a migration")
        }
        let names = columns.map(SQLBuilder.quote)
        let updates = columns.filter { $0 != "id" }.map { "\(SQLBuilder.quote($0)) = excluded.\(SQLBuilder.quote($0))" }
        upsertSQL =
            "INSERT INTO \(SQLBuilder.quote(Record.tableName)) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            + (updates.isEmpty
                ? " ON CONFLICT(\"id\") DO NOTHING"
                : " ON CONFLICT(\"id\") DO UPDATE SET \(updates.joined(separator: ", "))")
    }

    public func fetch(id: Record.ID) async throws -> Record? {
        try await fetch(RecordQuery().filter("id", .equal, try ColumnEncoder.value(id)).limit(1)).first
    }

    public func fetch(_ query: RecordQuery) async throws -> [Record] {
        let (sql, arguments) = SQLBuilder.select(query, table: table)
        let rows = try await SQLiteStore.mapErrors {
            try await store.pool.read { db in
                try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map(
                    SQLBuilder.storedRow)
            }
        }
        return try rows.map { try ColumnDecoder.decode(Record.self, from: $0) }
    }

    public func count(_ query: RecordQuery) async throws -> Int {
        let (whereSQL, arguments) = SQLBuilder.whereClause(query)
        let table = self.table
        return try await SQLiteStore.mapErrors {
            try await store.pool.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(SQLBuilder.quote(table))\(whereSQL)",
                    arguments: StatementArguments(arguments)) ?? 0
            }
        }
    }

    public func save(_ records: [Record]) async throws {
        try await replace(matching: nil, with: records)
    }

    public func replace(matching query: RecordQuery, with records: [Record]) async throws {
        try await replace(matching: Optional(query), with: records)
    }

    private func replace(matching query: RecordQuery?, with records: [Record]) async throws {
        let rows = try records.map(encodeRow)
        let (sql, table) = (upsertSQL, self.table)
        try await SQLiteStore.mapErrors {
            try await store.pool.write { db in
                if let query {
                    let (whereSQL, arguments) = SQLBuilder.whereClause(query)
                    try db.execute(
                        sql: "DELETE FROM \(SQLBuilder.quote(table))\(whereSQL)",
                        arguments: StatementArguments(arguments))
                }
                let statement = try db.cachedStatement(sql: sql)
                for row in rows { try statement.execute(arguments: StatementArguments(row)) }
            }
        }
    }

    @discardableResult
    public func delete(ids: [Record.ID]) async throws -> Int {
        try await delete(matching: RecordQuery().filter("id", in: try ids.map { try ColumnEncoder.value($0) }))
    }

    @discardableResult
    public func delete(matching query: RecordQuery) async throws -> Int {
        let (whereSQL, arguments) = SQLBuilder.whereClause(query)
        let table = self.table
        return try await SQLiteStore.mapErrors {
            try await store.pool.write { db in
                try db.execute(
                    sql: "DELETE FROM \(SQLBuilder.quote(table))\(whereSQL)", arguments: StatementArguments(arguments))
                return db.changesCount
            }
        }
    }

    /// The record's values in table column order; a property with no column is an error.
    private func encodeRow(_ record: Record) throws -> [DatabaseValue] {
        let encoded = try ColumnEncoder.encode(record)
        if let unknown = encoded.keys.first(where: { !columns.contains($0) }) {
            throw PersistenceError.coding(
                "\(Record.self).\(unknown) has no column in table \(table); add it in a migration")
        }
        return columns.map { SQLBuilder.databaseValue(encoded[$0] ?? .null) }
    }
}
