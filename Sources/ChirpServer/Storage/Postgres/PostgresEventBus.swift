import ChirpModels
import Logging
import PostgresNIO
import ServiceLifecycle

/// Cross-instance fan-out over PostgreSQL's LISTEN/NOTIFY: one connection per instance
/// `LISTEN`s on `PostgresStorage.channel` and wakes this instance's listeners for commits made
/// by other instances, handing them a batch of sends' events when its notification carries
/// them; live-only events (typing) are sent and received the same way.
///
/// Notifications are not stored, so a lost connection is re-established with backoff, and once
/// it listens again every local stream is woken to re-read the database after its last seq:
/// nothing committed meanwhile is missed. A ping every `pingPeriod` notices a silent link.
final class PostgresEventBus: Service, ClusterEventBus {
    private let storage: PostgresStorage
    private let hub: EventHub
    private let logger: Logger
    private let pingPeriod: Duration
    /// This instance's session cache, which forgets a user's sessions when another instance
    /// ends one of them.
    private let sessions: SessionCache?
    /// This instance's event streams, which close when their session ended on another instance.
    private let streams: StreamRoster?

    init(
        storage: PostgresStorage, hub: EventHub, logger: Logger, pingPeriod: Duration = .seconds(10),
        sessions: SessionCache? = nil, streams: StreamRoster? = nil
    ) {
        self.streams = streams
        self.storage = storage
        self.hub = hub
        self.sessions = sessions
        self.logger = logger
        self.pingPeriod = pingPeriod
    }

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            var delay: Duration = .milliseconds(100)
            while !Task.isCancelled {
                do {
                    try await self.listenOnce { delay = .milliseconds(100) }
                } catch {
                    if Task.isCancelled { break }
                    self.logger.warning(
                        "event notifications lost; reconnecting",
                        metadata: ["error": "\(DatabaseFailure.describe(error))"])
                    // The database may have failed over: the pool, whose waiting requests
                    // see no error while it reconnects, moves to the new primary too.
                    self.storage.lookForPrimary()
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// Connects, listens until the connection fails or the task is cancelled.
    private func listenOnce(onListening: () -> Void) async throws {
        // The primary's host: LISTEN is refused on a standby, and after a failover only the
        // promoted standby's commits notify.
        let (connection, _) = try await PostgresPrimary.connect(
            storage.settings, applicationName: "chirp-listener", logger: logger)
        defer { Task { try? await connection.close() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await connection.listen(on: PostgresStorage.channel) { notifications in
                    // Whatever was committed while nobody listened is read now.
                    self.hub.wakeAll()
                    for try await notification in notifications {
                        self.handle(notification.payload)
                    }
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: self.pingPeriod)
                    try await connection.query("SELECT 1", logger: self.logger)
                }
            }
            onListening()
            // Either ending (the sequence failing, or a ping failing) ends both.
            try await group.next()
            group.cancelAll()
        }
    }

    private func handle(_ payload: String) {
        // This instance's own notifications are the most frequent: skip them unparsed.
        guard !PostgresBusMessage.payload(payload, isFrom: storage.instanceId),
            let message = PostgresBusMessage(payload: payload)
        else { return }
        switch message.content {
        case .wake(nil):
            hub.wakeAll()
        case .wake(let users?):
            hub.notify(users)
        case .appended:
            if let events = message.appendedEvents { hub.publish(events) }
        case .live(let userId, let event):
            hub.deliverLive(to: userId, event: event)
        case .sessionsEnded(let userId):
            sessions?.removeAll(userId: userId)
            if let streams {
                let storage = storage
                Task { await streams.sessionsEnded(userId: userId, store: storage) }
            }
        }
    }

    func publishSessionsEnded(userId: Int64) async {
        let payload = PostgresBusMessage(origin: storage.instanceId, content: .sessionsEnded(userId: userId)).payload
        do {
            try await storage.client.query("SELECT pg_notify(\(PostgresStorage.channel), \(payload))")
        } catch {
            logger.warning(
                "ended sessions not announced to other instances",
                metadata: ["error": "\(DatabaseFailure.describe(error))"])
        }
    }

    func publishLive(userId: Int64, event: StoredEvent) async {
        let payload = PostgresBusMessage(origin: storage.instanceId, content: .live(userId: userId, event: event))
            .payload
        guard payload.utf8.count <= PostgresStorage.maxPayload else { return }
        do {
            try await storage.client.query("SELECT pg_notify(\(PostgresStorage.channel), \(payload))")
        } catch {
            logger.debug(
                "live event not sent to other instances", metadata: ["error": "\(DatabaseFailure.describe(error))"])
        }
    }
}
