import ChirpModels

/// What the route handlers share: storage, the event hub, password hashing, rate limiters,
/// metrics and the configuration.
struct ServerServices: Sendable {
    let configuration: ServerConfiguration
    let storage: any ChirpStorage
    let hub: EventHub
    /// Sessions verified recently (see `SessionCache`).
    let sessions: SessionCache
    /// Other instances on the same database (PostgreSQL); nil with SQLite.
    let bus: (any ClusterEventBus)?
    /// Pings event-stream clients and drops those that stopped reading or answering.
    let keeper: StreamKeeper
    let hasher: PasswordHasher
    let messageLimiter: SlidingWindowLimiter
    let loginLimiter: SlidingWindowLimiter
    let metrics: ServerMetrics
    let now: @Sendable () -> Timestamp

    init(
        configuration: ServerConfiguration, storage: any ChirpStorage, hub: EventHub = EventHub(),
        sessions: SessionCache = SessionCache(), bus: (any ClusterEventBus)? = nil,
        now: @escaping @Sendable () -> Timestamp = { .now() }
    ) {
        self.configuration = configuration
        self.storage = storage
        self.hub = hub
        self.sessions = sessions
        self.bus = bus
        self.hasher = PasswordHasher(cost: configuration.bcryptCost)
        self.messageLimiter = SlidingWindowLimiter(limit: configuration.messageRateLimit, window: configuration.messageRateWindow)
        self.loginLimiter = SlidingWindowLimiter(limit: configuration.loginFailureLimit, window: configuration.loginFailureWindow)
        self.metrics = ServerMetrics()
        self.keeper = StreamKeeper(pingInterval: configuration.streamPingInterval)
        self.now = now
    }

    /// Hands a live-only event to the listeners of `userId` here and on every other instance.
    func publishLive<T: Encodable>(to userId: Int64, type: String, payload: T) async {
        guard let event = hub.publishLive(to: userId, type: type, payload: payload, at: now()) else { return }
        await bus?.publishLive(userId: userId, event: event)
    }

    /// When a token issued now stops working.
    func tokenExpiry(from start: Timestamp) -> Timestamp {
        let lifetime = configuration.tokenLifetime.components
        let ms = lifetime.seconds * 1000 + lifetime.attoseconds / 1_000_000_000_000_000
        return Timestamp(millisecondsSince1970: start.millisecondsSince1970 + ms)
    }
}
