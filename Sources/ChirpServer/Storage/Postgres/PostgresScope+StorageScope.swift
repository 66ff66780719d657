import ChirpModels
import PostgresNIO

extension PostgresScope: StorageScope {
    var dialect: SQLDialect { .postgres }

    func query(_ sql: String, _ values: [SQLValue]) async throws -> [PostgresRandomAccessRow] {
        try await rows(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(values)))
    }

    func query<S: PreparedSQL>(_ statement: S.Type, _ values: [SQLValue]) async throws -> [PostgresRandomAccessRow] {
        try await rows(PreparedQuery(statement, Self.bindings(values)))
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) async throws -> Int {
        let result = try await connection.query(
            PostgresQuery(unsafeSQL: sql, binds: Self.bindings(values)), logger: logger
        ).get()
        return result.metadata.rows ?? 0
    }

    func nextMessageId() async throws -> Int64 {
        guard let id = try await value("SELECT nextval(pg_get_serial_sequence('messages', 'id'))", as: Int64.self)
        else { throw StorageError.inconsistent("the message sequence gave no value") }
        return id
    }

    func insertGroupMessage(_ new: NewGroupMessage) async throws -> Int64 {
        guard
            let id = try await queryValue(
                Self.insertGroupMessageSQL, new.groupId, new.sender.id, new.clientMessageId, new.text, new.createdAt,
                new.replyTo, new.mediaJSON, new.envelopeJSON, SearchTerms.indexed(new.text), as: Int64.self)
        else { throw StorageError.inconsistent("a group message insert returned no id") }
        return id
    }

    private static let insertGroupMessageSQL = GroupSQL.insertMessage(
        id: "nextval(pg_get_serial_sequence('messages', 'id'))", searchWords: "string_to_array($9, ' ')")

    /// The rows' words go (the GIN index follows its column).
    func unindexMessages(where condition: String, _ argument: Int64) async throws {
        try await run("UPDATE messages SET search_words = '{}' WHERE \(condition)", [.integer(argument)])
    }

    func indexMessage(_ id: Int64, text: String) async throws {
        try await run(
            "UPDATE messages SET search_words = string_to_array($2, ' ') WHERE id = $1",
            [.integer(id), .text(SearchTerms.indexed(text))])
    }

    /// postgres-nio's bindings for `values`.
    static func bindings(_ values: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .integer(let integer): bindings.append(integer)
            case .text(let text): bindings.append(text)
            case .boolean(let boolean): bindings.append(boolean)
            case .integers(let integers): bindings.append(integers)
            case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }
}

extension PostgresRandomAccessRow: StorageRow {
    func has(_ column: String) -> Bool { contains(column) }

    private func cell(_ column: String) throws -> PostgresCell {
        guard contains(column) else { throw StorageError.inconsistent("no column \(column) in the row") }
        return self[column]
    }

    func isNull(_ column: String) throws -> Bool { try cell(column).bytes == nil }
    func int64(_ column: String) throws -> Int64 { try cell(column).decode(Int64.self) }
    func text(_ column: String) throws -> String { try cell(column).decode(String.self) }
    func bool(_ column: String) throws -> Bool { try cell(column).decode(Bool.self) }

    func columnName(_ index: Int) throws -> String {
        guard index < count else { throw StorageError.inconsistent("no column \(index) in the row") }
        return self[index].columnName
    }
}
