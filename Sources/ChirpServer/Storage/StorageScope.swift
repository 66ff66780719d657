import ChirpModels

/// One unit of work on the database, read-only or inside a write's transaction: what the
/// store implementations written once (`StorageEngine`'s extensions) run their statements
/// through, whichever engine is underneath (`SQLiteScope`, `PostgresScope`).
///
/// Statements are written once, in the SQL both engines read, with PostgreSQL's `$1`, `$2`…
/// for parameters (SQLite reads them as its numbered `?1`, `?2`…). What the two engines spell
/// differently comes from `dialect`. Rows are read by column name (`StorageRow`).
protocol StorageScope: Sendable {
    associatedtype Row: StorageRow

    /// How this engine spells what the two do not share.
    var dialect: SQLDialect { get }

    /// Every row `sql` returns with `values` bound to `$1`, `$2`….
    func query(_ sql: String, _ values: [SQLValue]) async throws -> [Row]

    /// Runs `sql` with `values` bound; returns how many rows it inserted, changed or deleted.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) async throws -> Int

    /// Every row the prepared statement `statement` returns with `values` bound.
    func query<S: PreparedSQL>(_ statement: S.Type, _ values: [SQLValue]) async throws -> [Row]

    /// Locks these users' rows until the transaction ends, in id order, so that writes
    /// touching the same users queue instead of deadlocking (a no-op where one writer runs at
    /// a time, as in SQLite).
    func lockUsers(_ ids: [Int64]) async throws

    /// The next value of the one message id sequence, taken for a join mark
    /// (`GroupSQL.addMember`) or a group message: a message stored after it gets a larger id.
    func nextMessageId() async throws -> Int64

    /// Appends one event with the same data, `json`, to each of these users' streams (their
    /// rows locked first, `lockUsers`) and returns them in the order of `userIds`; `stored`
    /// says how the rows keep it.
    @discardableResult
    func appendEvents(userIds: [Int64], type: String, json: String, at: Timestamp, stored: StoredEventData)
        async throws -> [AppendedEvent]

    /// Takes the messages matching `condition` (a condition on `messages` over `$1`,
    /// `argument`) out of this engine's search index, as they are indexed now: called before
    /// their text changes or they become tombstones. SQLite's FTS5 index needs the words it
    /// was given to take an entry out; PostgreSQL clears the rows' `search_words`.
    func unindexMessages(where condition: String, _ argument: Int64) async throws

    /// Inserts group message `new` (`GroupSQL.insertMessage`) with the next id of the one
    /// message sequence and returns the id; the engine indexes it for search its own way
    /// (PostgreSQL stores its words in the row; SQLite's indexer reads it after the commit).
    func insertGroupMessage(_ new: NewGroupMessage) async throws -> Int64

    /// Puts message `id` back in this engine's search index with `text`, its text as now
    /// stored (after an edit, `unindexMessages` first).
    func indexMessage(_ id: Int64, text: String) async throws
}

extension StorageScope {
    /// Every row `sql` returns with `values` bound to `$1`, `$2`….
    func query(_ sql: String, _ values: any SQLBindable...) async throws -> [Row] {
        try await query(sql, values.map(\.sqlValue))
    }

    /// Every row the prepared statement `statement` returns with `values` bound.
    func query<S: PreparedSQL>(_ statement: S.Type, _ values: any SQLBindable...) async throws -> [Row] {
        try await query(statement, values.map(\.sqlValue))
    }

    /// The first row `sql` returns, if any.
    func queryRow(_ sql: String, _ values: any SQLBindable...) async throws -> Row? {
        try await query(sql, values.map(\.sqlValue)).first
    }

    /// The first column of the first row `sql` returns; nil when it returns no row.
    func queryValue<T: ColumnValue>(_ sql: String, _ values: any SQLBindable..., as type: T.Type = T.self) async throws
        -> T?
    {
        guard let row = try await query(sql, values.map(\.sqlValue)).first else { return nil }
        return try T(row, column: 0)
    }

    /// Runs `sql` with `values` bound; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: any SQLBindable...) async throws -> Int {
        try await run(sql, values.map(\.sqlValue))
    }

    /// Runs each of `statements` with the same `values`.
    func run(each statements: [String], _ values: any SQLBindable...) async throws {
        let bound = values.map(\.sqlValue)
        for statement in statements { try await run(statement, bound) }
    }

    /// Appends one event to one user's stream and returns it.
    @discardableResult
    func appendEvent(userId: Int64, type: String, json: String, at: Timestamp) async throws -> AppendedEvent {
        try await appendEvents(userIds: [userId], type: type, json: json, at: at, stored: .copy)[0]
    }

    /// The id of the user with that username key, if any.
    func userId(key: String) async throws -> Int64? {
        try await queryValue("SELECT id FROM users WHERE username_key = $1", key)
    }
}
