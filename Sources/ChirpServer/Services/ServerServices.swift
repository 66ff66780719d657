import ChirpModels
import ChirpPush
import Logging

/// The server's services, one per feature, over one storage, and what the HTTP and stream
/// layers share with them: the event hub, the stream keeper, metrics and the configuration.
struct ServerServices: Sendable {
    let configuration: ServerConfiguration
    let hub: EventHub
    /// Pings event-stream clients and drops those that stopped reading or answering.
    let keeper: StreamKeeper
    /// Each user's open event streams on this instance (the per-user cap; closed when their
    /// session ends).
    let streams: StreamRoster
    let metrics: ServerMetrics
    let accounts: AccountService
    let social: SocialService
    let messages: MessageService
    /// The conversation list (pinned first, requests apart), pins and mutes, and answers to
    /// requests.
    let conversations: ConversationService
    /// The viewer's settings (who may start a conversation with them).
    let settings: SettingsService
    /// Group conversations: groups, their members, messages, reads and typing.
    let groups: GroupService
    /// Reactions, edits, unsends, reply links and search.
    let messageActions: MessageActionService
    let tweets: TweetService
    let events: EventService
    let logs: ClientLogService
    let safety: SafetyService
    /// The operators' reports queue, suspensions, take-downs, figures and audit log.
    let moderation: ModerationService
    let media: MediaService
    /// Users' data exports (archives prepared in the background, then downloaded).
    let exports: DataExportService
    /// The rate limits the services apply (the reaction service takes `limits.takeReaction`).
    let limits: RateLimits
    let push: PushService
    /// Queues the pushes of what sends store, and sends them (run beside the server).
    let pushNotifier: PushNotifier
    let pushWorker: PushDeliveryWorker
    /// Devices and their public keys for encrypted conversations.
    let devices: DeviceService
    /// Turning conversations encrypted.
    let encryption: EncryptionService

    /// - Parameters:
    ///   - sessions: recently verified sessions (PostgreSQL: `sharedDatabase`, trusted by sends only, see `SessionCache`).
    ///   - bus: other instances on the same database (PostgreSQL); nil with SQLite.
    init(
        configuration: ServerConfiguration, storage: any ChirpStorage, hub: EventHub = EventHub(),
        sessions: SessionCache = SessionCache(), bus: (any ClusterEventBus)? = nil,
        rateCounters: (any RateCounterStore)? = nil, streams: StreamRoster? = nil,
        now: @escaping @Sendable () -> Timestamp = { .now() }
    ) {
        let metrics = ServerMetrics()
        // One process counts in memory; instances sharing a database count there.
        let limiter: any RateLimiter =
            rateCounters.map { SharedRateLimiter(store: $0, now: { now().millisecondsSince1970 }) }
            ?? MemoryRateLimiter()
        let limits = RateLimits(configuration: configuration, limiter: limiter)
        self.limits = limits
        self.configuration = configuration
        self.hub = hub
        hub.sweepAgainst(streamHeads: { [storage] userIds in try await storage.streamHeads(userIds: userIds) })
        self.keeper = StreamKeeper(pingInterval: configuration.streamPingInterval)
        let streams = streams ?? StreamRoster(limit: configuration.maxStreamsPerUser)
        self.streams = streams
        self.metrics = metrics
        let groupRules = GroupRules(
            maxMembers: configuration.maxGroupMembers, maxGroupsPerUser: configuration.maxGroupsPerUser)
        self.accounts = AccountService(
            store: storage, sessions: sessions, hasher: PasswordHasher(cost: configuration.bcryptCost),
            loginThrottle: LoginThrottle(configuration: configuration, limiter: limiter),
            tokenLifetime: configuration.tokenLifetime, now: now, hub: hub, bus: bus,
            useRecorder: SessionUseRecorder(interval: configuration.sessionLastUseInterval), limits: limits,
            streams: streams, groupRules: groupRules)
        self.social = SocialService(store: storage, hub: hub, now: now, limits: limits)
        let files = MediaFiles(root: configuration.mediaURL)
        let media = MediaService(
            store: storage, files: files, maxBytes: configuration.maxMediaBytes,
            quota: MediaQuota(
                store: storage, files: files, quotaBytes: configuration.mediaQuotaBytes,
                maxUnfinished: configuration.maxUnfinishedUploads),
            unreferencedLifetime: configuration.unreferencedMediaLifetime, now: now)
        self.media = media
        let accounts = self.accounts
        var messageActions = MessageActionService(
            store: storage, hub: hub, limits: limits, editWindow: configuration.messageEditWindow, now: now)
        messageActions.groups = storage
        messageActions.devices = storage
        self.messageActions = messageActions
        let pushLogger = Logger(label: "chirp.push")
        let keyring = PushKeyring(store: storage, contact: configuration.pushContact, now: now)
        var push = PushService(
            store: storage, keyring: keyring, policy: PushEndpointPolicy(allowedHosts: configuration.pushAllowedHosts),
            limit: configuration.maxPushSubscriptions, now: now)
        var retries = PushRetryPolicy.standard
        retries.firstDelay = configuration.pushFirstRetryDelay
        let pushWorker = PushDeliveryWorker(
            store: storage, keyring: keyring, timeout: configuration.pushTimeout, retries: retries, now: now,
            logger: pushLogger)
        self.pushWorker = pushWorker
        let pushNotifier = PushNotifier(store: storage, worker: pushWorker, now: now, logger: pushLogger)
        self.pushNotifier = pushNotifier
        push.onSubscribed = { pushNotifier.subscriptionsChanged() }
        self.push = push
        self.devices = DeviceService(store: storage, hub: hub, limit: configuration.maxDevices, now: now)
        var messages = MessageService(
            store: storage, hub: hub, bus: bus, limits: limits, metrics: metrics, now: now, media: media,
            replies: messageActions,
            confirmSession: { try await accounts.confirmed($0) })
        messages.push = pushNotifier
        messages.devices = storage
        self.messages = messages
        var groups = GroupService(
            store: storage, hub: hub, bus: bus, limits: limits, rules: groupRules, now: now,
            media: media, replies: messageActions)
        groups.push = pushNotifier
        groups.devices = storage
        self.groups = groups
        self.encryption = EncryptionService(store: storage, groups: groups, hub: hub, now: now)
        self.conversations = ConversationService(store: storage, hub: hub, now: now)
        self.settings = SettingsService(store: storage)
        self.tweets = TweetService(store: storage, hub: hub, metrics: metrics, now: now, limits: limits)
        self.events = EventService(store: storage, hub: hub, maxWait: configuration.maxLongPollSeconds)
        self.logs = ClientLogService(store: storage, now: now, limits: limits)
        self.safety = SafetyService(store: storage, hub: hub, now: now, limits: limits)
        self.moderation = ModerationService(store: storage, accounts: accounts, hub: hub, now: now)
        self.exports = DataExportService(
            archiver: DataExportArchiver(
                accounts: accounts, social: social, safety: safety, tweets: tweets, messages: messages,
                conversations: conversations,
                settings: settings, media: files, groups: groups),
            directory: configuration.exportsURL, retention: configuration.exportRetention, limits: limits, now: now)
    }
}
