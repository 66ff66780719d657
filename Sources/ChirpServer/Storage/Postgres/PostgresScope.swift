import ChirpModels
import Logging
import PostgresNIO
import Synchronization

/// One leased connection, inside a transaction for writes: runs queries, decodes rows, and
/// appends events while remembering whose streams grew (they are notified at commit).
final class PostgresScope: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    private let grown = Mutex<[AppendedEvent]>([])

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Every row of `query`'s result.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await connection.query(query, logger: logger) {
            rows.append(row.makeRandomAccess())
        }
        return rows
    }

    /// Every row of a prepared statement's result.
    func rows<S>(_ query: PreparedQuery<S>) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await connection.execute(query, logger: logger) { rows.append(row) }
        return rows
    }

    /// The first row of `query`'s result, if any.
    func row(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first
    }

    /// The first column of the first row, if any.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        try await row(query).map { try $0.value(0, as: T.self) }
    }

    /// Runs a statement and returns the number of rows it returned (use `RETURNING 1` to count
    /// the rows a write touched).
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int {
        var count = 0
        for try await _ in try await connection.query(query, logger: logger) { count += 1 }
        return count
    }

    /// Runs `statements`, SQL shared with SQLite, with the same `binds` each.
    func execute(_ statements: [String], _ binds: PostgresBindings) async throws {
        for statement in statements { try await execute(PostgresQuery(unsafeSQL: statement, binds: binds)) }
    }

    /// Locks these users' rows in id order, so that transactions touching the same users queue
    /// up instead of deadlocking.
    func lockUsers(_ ids: [Int64]) async throws {
        let sorted = Array(Set(ids)).sorted()
        try await execute("SELECT id FROM users WHERE id = ANY(\(sorted)) ORDER BY id FOR UPDATE")
    }

    /// Appends one event to a user's stream and returns it. The row lock taken by the `UPDATE`
    /// holds later writers of that stream until this transaction ends, so seqs stay gap-free and
    /// become visible in order.
    @discardableResult
    func appendEvent(userId: Int64, type: String, json: String, at: Timestamp) async throws -> AppendedEvent {
        guard
            let seq = try await value(
                "UPDATE users SET last_seq = last_seq + 1 WHERE id = \(userId) RETURNING last_seq", as: Int64.self)
        else { throw StorageError.inconsistent("user \(userId) is missing") }
        try await execute(
            """
            INSERT INTO events (user_id, seq, type, created_at, data)
            VALUES (\(userId), \(seq), \(type), \(at.millisecondsSince1970), \(json))
            """)
        let appended = AppendedEvent(
            userId: userId, event: StoredEvent(seq: seq, type: type, createdAt: at, json: json))
        grown.withLock { $0.append(appended) }
        return appended
    }

    /// Appends one event with the same content to each of these users' streams (their rows
    /// locked first, `lockUsers`) in one statement; returns them in the order of `userIds`.
    /// `stored` says how the rows keep the data (`StoredEventData`).
    @discardableResult
    func appendEvents(userIds: [Int64], type: String, json: String, at: Timestamp, stored: StoredEventData = .copy)
        async throws -> [AppendedEvent]
    {
        if userIds.isEmpty { return [] }
        var seqs: [Int64: Int64] = [:]
        let grownRows = "grown AS (UPDATE users SET last_seq = last_seq + 1 WHERE id = ANY($1) RETURNING id, last_seq)"
        let time = at.millisecondsSince1970
        let query: PostgresQuery
        switch stored {
        case .shared where userIds.count > 1:
            query = PostgresQuery(
                unsafeSQL: """
                    WITH payload AS (INSERT INTO event_payloads (data) VALUES ($4) RETURNING id), \(grownRows)
                    INSERT INTO events (user_id, seq, type, created_at, data, payload_id)
                    SELECT grown.id, grown.last_seq, $2, $3, '', payload.id FROM grown, payload
                    RETURNING user_id, seq
                    """, binds: PostgresStorage.binds(userIds, type, time, json))
        case .message(let id):
            query = PostgresQuery(
                unsafeSQL: """
                    WITH \(grownRows)
                    INSERT INTO events (user_id, seq, type, created_at, data, message_id)
                    SELECT id, last_seq, $2, $3, '', $4 FROM grown
                    RETURNING user_id, seq
                    """, binds: PostgresStorage.binds(userIds, type, time, id))
        case .copy, .shared:
            query = PostgresQuery(
                unsafeSQL: """
                    WITH \(grownRows)
                    INSERT INTO events (user_id, seq, type, created_at, data)
                    SELECT id, last_seq, $2, $3, $4 FROM grown
                    RETURNING user_id, seq
                    """, binds: PostgresStorage.binds(userIds, type, time, json))
        }
        for row in try await rows(query) {
            seqs[try row.value(0, as: Int64.self)] = try row.value(1, as: Int64.self)
        }
        let appended = try userIds.map { userId in
            guard let seq = seqs[userId] else { throw StorageError.inconsistent("user \(userId) is missing") }
            return AppendedEvent(userId: userId, event: StoredEvent(seq: seq, type: type, createdAt: at, json: json))
        }
        grown.withLock { $0.append(contentsOf: appended) }
        return appended
    }

    /// Every event this scope appended, in order.
    var appended: [AppendedEvent] { grown.withLock { $0 } }

}

extension PostgresRandomAccessRow {
    /// The value of column `index`.
    func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        try self[index].decode(T.self)
    }
}
