import ChirpModels
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Builds the Chirp HTTP server: storage, routes and middleware, ready to run (`runService()`)
/// or to run in a service group of its own (as the tests do).
public enum ChirpServerApplication {
    /// Opens the storage (SQLite in `configuration.dataDirectory`, or `configuration.postgres`,
    /// migrated to the current schema) and assembles the application. With PostgreSQL the
    /// application also runs the connection pool and the cross-instance event bus, and closes
    /// both after the server has stopped.
    ///
    /// - Parameter onListening: called once the socket is bound, with the real port (useful with
    ///   port 0).
    public static func make(
        configuration: ServerConfiguration,
        logger: Logger = Logger(label: "chirp.server"),
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) async throws -> some ApplicationProtocol {
        let hub = EventHub(sweepPeriod: configuration.streamSweepPeriod)
        let services: ServerServices
        var background: [any Service] = []
        if let settings = configuration.postgres {
            let storage = try await PostgresStorage.open(settings: settings, logger: logger)
            // A logout on one instance must stop the token on all of them at once: every
            // request asks the shared database, except a send, whose write confirms the
            // session itself (`SessionCache.sharedDatabase`).
            let sessions = SessionCache(sharedDatabase: true)
            let streams = StreamRoster(limit: configuration.maxStreamsPerUser)
            let bus = PostgresEventBus(storage: storage, hub: hub, logger: logger, sessions: sessions, streams: streams)
            services = ServerServices(
                configuration: configuration, storage: storage, hub: hub, sessions: sessions, bus: bus,
                rateCounters: storage, streams: streams)
            background = [storage, bus]
        } else {
            let storage = try SQLiteStorage(
                url: configuration.databaseURL, logger: logger, indexesSends: !configuration.benchWithoutSearchIndex)
            services = ServerServices(configuration: configuration, storage: storage, hub: hub)
        }
        return make(services: services, background: background, logger: logger, onListening: onListening)
    }

    /// The application over services already assembled (tests hand in a storage of their own),
    /// running `background` beside the server.
    static func make(
        services: ServerServices, background: [any Service] = [], logger: Logger,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        let configuration = services.configuration
        try? services.media.files.prepare()
        let retention = RetentionSweeper(
            logs: services.logs.store, reports: services.safety.store, events: services.events.store,
            logRetention: configuration.clientLogRetention, reportRetention: configuration.reportRetention,
            eventRetention: configuration.eventRetention, interval: configuration.retentionSweepInterval,
            now: services.logs.now, logger: logger)
        let background =
            background + [
                PeriodicSweep(name: "media", interval: configuration.mediaSweepInterval, logger: logger) {
                    [media = services.media] in
                    try await media.sweep()
                },
                retention, services.pushNotifier, services.pushWorker,
                PeriodicSweep(name: "export", interval: configuration.retentionSweepInterval, logger: logger) {
                    [exports = services.exports] in
                    await exports.sweep()
                },
            ]
        let router = makeRouter(services: services)
        let stream = EventStream(services: services)
        return Application(
            router: router,
            server: ChirpServerChannel.builder(
                stream: stream, maxFrameSize: 64 * 1024,
                limits: ConnectionGuard.Settings(configuration, metrics: services.metrics),
                tls: configuration.tls),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "chirp",
                backlog: configuration.listenBacklog),
            services: background,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                await onListening(configuration.host, port)
            },
            logger: logger)
    }

    static func makeRouter(services: ServerServices) -> Router<ChirpRequestContext> {
        let router = Router(context: ChirpRequestContext.self)
        let routeTable = RouteTable()
        if !services.configuration.trustedProxies.isEmpty {
            router.middlewares.add(
                ForwardedClientMiddleware(proxies: TrustedProxies(services.configuration.trustedProxies)))
        }
        router.middlewares.add(ObservabilityMiddleware(metrics: services.metrics, routeTable: routeTable))
        router.middlewares.add(ErrorEnvelopeMiddleware(routeTable: routeTable))
        router.middlewares.add(
            RequestLimitsMiddleware(
                maxBodyBytes: services.configuration.maxBodyBytes,
                maxGroupMessageBodyBytes: services.configuration.maxGroupMessageBodyBytes))
        if services.configuration.chaosRate > 0 {
            router.middlewares.add(ChaosMiddleware(rate: services.configuration.chaosRate))
        }
        if !services.configuration.failOnce.isEmpty {
            router.middlewares.add(FailOnceMiddleware(requests: services.configuration.failOnce))
        }
        // Protected routes: the bearer token is resolved once, and their handlers get the
        // viewer from the child context (`AuthenticatedRequestContext`).
        let authenticated = router.group()
            .add(middleware: AuthenticationMiddleware(authenticator: Authenticator(accounts: services.accounts)))
            .group(context: AuthenticatedRequestContext.self)
        // The send alone may take a session this instance verified before without asking
        // storage again: its own write confirms the session.
        let sending = router.group()
            .add(
                middleware: AuthenticationMiddleware(
                    authenticator: Authenticator(accounts: services.accounts, accepts: .bySendWrite))
            )
            .group(context: AuthenticatedRequestContext.self)
        AccountRoutes(services: services).register(on: router, authenticated: authenticated)
        SocialRoutes(services: services).register(on: authenticated)
        MessageRoutes(services: services).register(on: authenticated, sends: sending)
        ConversationMarkRoutes(services: services).register(on: authenticated)
        MessageRequestRoutes(services: services).register(on: authenticated)
        MessageActionRoutes(services: services).register(on: authenticated)
        GroupRoutes(services: services).register(on: authenticated)
        TweetRoutes(services: services).register(on: authenticated)
        EventRoutes(services: services).register(on: authenticated)
        LogRoutes(services: services).register(on: authenticated)
        SafetyRoutes(services: services).register(on: authenticated)
        ModerationRoutes(services: services).register(on: authenticated)
        MediaRoutes(services: services).register(on: authenticated)
        ExportRoutes(services: services).register(on: authenticated)
        PushRoutes(services: services).register(on: router, authenticated: authenticated)
        DeviceRoutes(services: services).register(authenticated: authenticated)
        EncryptionRoutes(services: services).register(authenticated: authenticated)
        if let file = services.configuration.benchStaticFile { BenchFileRoutes(file: file).register(on: router) }
        OperationsRoutes(services: services).register(on: router)
        WebClientRoutes(assets: .bundled).register(on: router)
        return router
    }
}
