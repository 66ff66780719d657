import ChirpModels
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// `ChirpStorage` on PostgreSQL, for one or many server instances sharing a database.
///
/// Semantics match `SQLiteStorage`: each write is one transaction that appends the events it
/// causes. The users a write touches are row-locked in id order first, so concurrent writers
/// (on any instance) queue instead of deadlocking, and a user's `seq` stays gap-free. A commit
/// that appended events also `NOTIFY`s their user ids on `PostgresStorage.channel`, delivered to
/// every instance's `PostgresEventBus` only once the commit is durable.
final class PostgresStorage: ChirpStorage, Service {
    /// The LISTEN/NOTIFY channel of wake-ups and live events.
    static let channel = "chirp_events"
    /// PostgreSQL limits a notification's payload to 8,000 bytes; longer lists wake everyone.
    static let maxPayload = 7_900

    let settings: PostgresSettings
    let logger: Logger
    /// Names this instance in its notifications, so it can skip its own.
    let instanceId = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    /// Concurrent sends gathered into one transaction each (group commit), one batch at a time:
    /// a batch is one or two round trips (`sendBatch`), and a second batch would mostly wait on
    /// the first one's user locks (`chirp bench --database`: 2,587-2,731 sends/s with two at a
    /// time against 2,582-3,085 with one, with a higher ack p99).
    let sends = GroupCommitQueue<PendingSend, WriteOutcome<Message>>(maxConcurrent: 1)
    /// Concurrent session lookups (one per authenticated request but sends) gathered into one
    /// query each: on PostgreSQL only a send may take a cached session, which its own write
    /// confirms (a logout must stop a token on every instance at once), so this is the busiest
    /// read.
    let sessionLookups = GroupCommitQueue<[UInt8], SessionInfo?>()
    /// Facts and reserved ids earlier send batches learned (`writeFromCache`).
    let factsCache: SendFactsCache
    /// Tests only: runs just before a send batch is written (its facts read, or taken from
    /// `factsCache`), where another transaction can change them.
    let afterBatchFacts = Mutex<(@Sendable () async throws -> Void)?>(nil)
    /// The pool, on the primary's host (`settings.endpoints[endpoint]`); replaced after a failover.
    private let current: Mutex<(client: PostgresClient, endpoint: Int)>
    /// Whether a look for a new primary is under way.
    private let lookingForPrimary = Mutex(false)
    /// The task running the current pool.
    private let runningPool = Mutex<Task<Void, Never>?>(nil)
    /// Tells `run()` that the pool was replaced.
    private let replaced = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// The pool of connections to the primary.
    var client: PostgresClient { current.withLock { $0.client } }

    /// Connects to the primary (the first host that accepts writes), applies pending migrations
    /// on a connection of its own, and prepares a pool of `settings.poolSize` connections. The
    /// pool serves nothing until `run()` is running. `reservedIdLifetime`: how long message ids
    /// one send batch reserved may serve the next (`SendFactsCache`; tests lengthen it to
    /// follow one way of writing a batch).
    static func open(
        settings: PostgresSettings, logger: Logger, reservedIdLifetime: Duration = .milliseconds(50)
    ) async throws -> PostgresStorage {
        let (connection, endpoint) = try await PostgresPrimary.connect(
            settings, applicationName: "chirp", logger: logger)
        do {
            let applied = try await PostgresSchema.migrate(connection, logger: logger)
            if !applied.isEmpty { logger.info("applied migrations", metadata: ["migrations": "\(applied)"]) }
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        return PostgresStorage(
            settings: settings, endpoint: endpoint, logger: logger, reservedIdLifetime: reservedIdLifetime)
    }

    private init(settings: PostgresSettings, endpoint: Int, logger: Logger, reservedIdLifetime: Duration) {
        self.factsCache = SendFactsCache(idLifetime: reservedIdLifetime)
        self.current = Mutex((Self.pool(settings, endpoint: endpoint, logger: logger), endpoint))
        self.settings = settings
        self.logger = logger
    }

    private static func pool(_ settings: PostgresSettings, endpoint: Int, logger: Logger) -> PostgresClient {
        let host = settings.endpoints[endpoint]
        var configuration = PostgresClient.Configuration(
            host: host.host, port: host.port, username: settings.username,
            password: settings.password, database: settings.database, tls: .disable)
        configuration.options.maximumConnections = settings.poolSize
        configuration.options.minimumConnections = min(2, settings.poolSize - 1)
        configuration.options.additionalStartupParameters = [("application_name", "chirp")]
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// A single connection's configuration (migrations and the LISTEN connection) for one host.
    static func connectionConfiguration(
        _ settings: PostgresSettings, endpoint: Int = 0, applicationName: String = "chirp"
    ) -> PostgresConnection.Configuration {
        let host = settings.endpoints[endpoint]
        var configuration = PostgresConnection.Configuration(
            host: host.host, port: host.port, username: settings.username,
            password: settings.password, database: settings.database, tls: .disable)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// Runs the pool until cancelled; after a failover, the new primary's pool. The old pool
    /// is stopped without waiting for it (it fails the requests it still holds), so the new one
    /// serves at once.
    /// Ends on cancellation or graceful shutdown (as `PostgresClient.run()` does).
    func run() async {
        let first = client
        runningPool.withLock { $0 = Task { await first.run() } }
        await cancelWhenGracefulShutdown { [replaced] in
            for await _ in replaced.stream {
                let pool = self.client
                self.runningPool.withLock {
                    $0?.cancel()
                    $0 = Task { await pool.run() }
                }
            }
        }
        // Cancelled: stop the pool and wait for it.
        let last = runningPool.withLock { $0 }
        last?.cancel()
        await last?.value
    }

    /// After the database failed (with several hosts in the URL): finds the host that now
    /// accepts writes and, if it is another one, moves the pool there. Requests in flight on the
    /// old pool fail as unavailable, and clients retry them with the same ids.
    func lookForPrimary() {
        guard settings.endpoints.count > 1,
            lookingForPrimary.withLock({ looking in
                defer { looking = true }
                return !looking
            })
        else { return }
        Task {
            defer { lookingForPrimary.withLock { $0 = false } }
            // Until some host accepts writes (a standby is being promoted meanwhile).
            var found: (PostgresConnection, Int)?
            while found == nil {
                found = try? await PostgresPrimary.connect(settings, applicationName: "chirp", logger: logger)
                if found == nil { try? await Task.sleep(for: .milliseconds(250)) }
            }
            guard let (connection, endpoint) = found else { return }
            try? await connection.close()
            let moved = current.withLock { current -> Bool in
                guard current.endpoint != endpoint else { return false }
                current = (Self.pool(settings, endpoint: endpoint, logger: logger), endpoint)
                return true
            }
            if moved {
                let host = settings.endpoints[endpoint]
                logger.warning("the PostgreSQL primary is now \(host.host):\(host.port); the pool moved there")
                replaced.continuation.yield()
            }
        }
    }

    // MARK: running work

    /// Runs `body` on a pooled connection outside a transaction (each statement sees the
    /// newest committed data).
    func read<T: Sendable>(_ body: @Sendable (PostgresScope) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await body(PostgresScope(connection: connection, logger: logger))
            }
        } catch {
            throw translate(error)
        }
    }

    /// Runs `body` in a transaction and commits it; the result is returned only after the
    /// commit. Deadlocks and serialization failures are retried, a few times, from the start.
    func write<T: Sendable>(_ body: @Sendable (PostgresScope) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in
                    try await Self.transaction(connection, logger: logger, instanceId: instanceId, body)
                }
            } catch let error as PSQLError where Self.isRetryable(error) && attempt < 5 {
                try? await Task.sleep(for: .milliseconds(attempt * 5))
            } catch {
                throw translate(error)
            }
        }
    }

    private static func transaction<T: Sendable>(
        _ connection: PostgresConnection, logger: Logger, instanceId: String,
        _ body: @Sendable (PostgresScope) async throws -> T
    ) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        let scope = PostgresScope(connection: connection, logger: logger)
        do {
            let value = try await body(scope)
            let grown = scope.appended.userIds
            if !grown.isEmpty {
                // Delivered to listeners only when (and if) the COMMIT succeeds.
                let payload = PostgresBusMessage(origin: instanceId, content: .wake(users: grown)).payload
                try await scope.execute("SELECT pg_notify(\(channel), \(payload))")
            }
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    static func isRetryable(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// A database that cannot be reached becomes `StorageError.unavailable` (which clients
    /// retry); errors that are not PostgreSQL's (a decision's refusal) pass through.
    func translate(_ error: any Error) -> any Error {
        if let error = error as? PSQLError {
            let state = error.serverInfo?[.sqlState] ?? ""
            // Server-side: 08 connection, 53 resources, 57 operator intervention (shutdown).
            // Read-only (25006): a primary demoted to a standby.
            if error.code != .server || state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57")
                || state == "25006"
            {
                lookForPrimary()
                return StorageError.unavailable(cause: DatabaseFailure.describe(error))
            }
            // A character PostgreSQL cannot store (validation keeps U+0000 out of every field it
            // knows; this covers any it does not).
            if state == "22021" || state == "22P05" {
                return StorageError.unstorableText
            }
            logger.error(
                "database error", metadata: ["sqlState": "\(state)", "message": "\(DatabaseFailure.describe(error))"])
        }
        // The pool that a failover replaced fails the requests it still held with its own
        // error type (in a module postgres-nio does not export).
        if String(reflecting: type(of: error)).hasSuffix(".ConnectionPoolError") {
            return StorageError.unavailable(cause: "the connection pool was replaced or stopped: \(error)")
        }
        return error
    }

    // MARK: shared helpers

    /// Bindings for `$1`, `$2`, … in order.
    static func binds(_ values: any PostgresDynamicTypeEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }

    // MARK: events

    func events(userId: Int64, since: Int64, limit: Int) async throws -> EventRows {
        try await read { scope in
            let rows = try await scope.rows(PreparedQuery(EventsAfter.self, Self.binds(userId, since, Int64(limit))))
            var events: [EventRow] = []
            var head: Int64 = 0
            for row in rows {
                head = max(head, try row("head", as: Int64.self))
                guard try !row.isNull("e_seq") else { continue }
                let event = try EventColumns.eventRow(from: row)
                events.append(event)
                head = max(head, event.seq)
            }
            return EventRows(events: events, head: head)
        }
    }
}

extension PostgresStorage {
    func streamHeads(userIds: [Int64]) async throws -> [Int64: Int64] {
        guard !userIds.isEmpty else { return [:] }
        return try await read { scope in
            let rows = try await scope.rows(PreparedQuery(StreamHeads.self, Self.binds(userIds)))
            var heads: [Int64: Int64] = [:]
            for row in rows { heads[try row.value(0, as: Int64.self)] = try row.value(1, as: Int64.self) }
            return heads
        }
    }
}

/// The newest seq of each of these users' streams (`$1` the user ids).
private enum StreamHeads: PreparedSQL {
    static let sql = "SELECT id, last_seq FROM users WHERE id = ANY($1)"
}

/// A user's events after a seq (`$1` user, `$2` seq, `$3` limit, `EventSQL.stream`) and the
/// stream's head, from one snapshot in one round trip: one row per event, or one row with no
/// event.
private enum EventsAfter: PreparedSQL {
    static let sql = """
        SELECT u.last_seq AS head, e.* FROM users u
        LEFT JOIN LATERAL (\(EventSQL.stream(of: "u.id"))) e ON true
        WHERE u.id = $1
        ORDER BY e.e_seq
        """
}

extension PostgresStorage: StorageEngine {
    func reading<T: Sendable>(_ body: @escaping @Sendable (PostgresScope) async throws -> T) async throws -> T {
        try await read(body)
    }

    func writing<T: Sendable>(_ body: @escaping @Sendable (PostgresScope) async throws -> T) async throws -> T {
        try await write(body)
    }
}
