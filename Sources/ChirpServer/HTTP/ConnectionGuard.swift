import NIOCore
import NIOHTTP1

/// The time limits of one HTTP/1 connection, and the client address it is counted against.
///
/// - A request's head must be complete within `headerTimeout` of the connection opening, or,
///   on a kept-alive connection, of the next request's first byte.
/// - Between a response and the next request's first byte the connection is idle; it is
///   closed after `idleTimeout`.
/// - While a request is being answered neither applies (a long-poll may wait 30 s).
///
/// Two small handlers feed it: `ByteWatcher` at the front of the pipeline sees the first byte,
/// `HeadWatcher` after the HTTP decoder sees heads and response ends. Neither NIO's
/// `IdleStateHandler` nor Hummingbird's `idleTimeout` can do this: both measure inactivity,
/// which a client trickling a head byte by byte never shows, and Hummingbird's is only in the
/// pipeline after the first head, which a connection that sends nothing never gets to.
///
/// One timer per connection, moved lazily: a request only writes a deadline (no timer is
/// scheduled or cancelled on the hot path unless a head straddles reads); when the timer
/// fires early it is rescheduled for the deadline then in force.
/// Everything runs on the connection's event loop.
final class ConnectionGuard {
    /// The limits shared by every connection of a server.
    struct Settings: Sendable {
        var headerTimeout: TimeAmount?
        var idleTimeout: TimeAmount?
        var limiter: ConnectionLimiter
        var proxies: TrustedProxies
        /// Where open and refused connections are counted.
        var metrics: ServerMetrics?

        /// The limits `configuration` asks for (a zero timeout or limit turns it off).
        init(_ configuration: ServerConfiguration, metrics: ServerMetrics? = nil) {
            func timeout(_ duration: Duration) -> TimeAmount? {
                duration > .zero ? .nanoseconds(Int64(duration / .nanoseconds(1))) : nil
            }
            headerTimeout = timeout(configuration.headerTimeout)
            idleTimeout = timeout(configuration.idleTimeout)
            limiter = ConnectionLimiter(limit: configuration.maxConnectionsPerAddress)
            proxies = TrustedProxies(configuration.trustedProxies)
            self.metrics = metrics
        }
    }

    private let settings: Settings
    private let channel: any Channel
    /// The peer's address, when it is a trusted proxy (then each request names its client).
    private let proxyPeer: ClientAddress?
    /// The address this connection is counted against (nil: not counted).
    private(set) var counted: ClientAddress?
    private var requestsInFlight = 0
    /// Between a head's first byte and the head (true from the start).
    private var awaitingHead = true
    private var deadline: NIODeadline?
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline = .distantFuture
    private var stopped = false
    /// The server is shutting down gracefully (`ChannelShouldQuiesceEvent` was seen).
    private(set) var quiescing = false
    /// The `ByteWatcher`'s context, at the front of the pipeline: a close from there reaches the
    /// socket without passing TLS, which would first wait for the client's close_notify.
    fileprivate var frontContext: ChannelHandlerContext?

    private init(settings: Settings, channel: any Channel, counted: ClientAddress?, proxyPeer: ClientAddress?) {
        self.settings = settings
        self.channel = channel
        self.counted = counted
        self.proxyPeer = proxyPeer
    }

    /// Sets up the guard of a freshly accepted connection, or returns nil when its address
    /// already holds the most connections allowed (the caller then closes it unread). Call on
    /// the channel's event loop.
    static func admit(_ channel: any Channel, settings: Settings) -> ConnectionGuard? {
        let peer = channel.remoteAddress.flatMap(ClientAddress.init)
        var counted: ClientAddress?
        var proxyPeer: ClientAddress?
        if let peer {
            if settings.proxies.trusts(peer) {
                proxyPeer = peer  // counted per request, against the forwarded client
            } else {
                guard settings.limiter.acquire(peer) else {
                    settings.metrics?.refusedConnections.increment()
                    return nil
                }
                counted = peer
            }
        }
        let connectionGuard = ConnectionGuard(
            settings: settings, channel: channel, counted: counted, proxyPeer: proxyPeer)
        let bound = NIOLoopBound(connectionGuard, eventLoop: channel.eventLoop)
        settings.metrics?.openConnections.increment()
        channel.closeFuture.whenComplete { _ in bound.value.finish() }
        if let timeout = settings.headerTimeout { connectionGuard.setDeadline(.now() + timeout, arm: true) }
        return connectionGuard
    }

    /// The handlers to add: the first at the front of the pipeline, the second after the HTTP decoder.
    var handlers: (ByteWatcher, HeadWatcher) { (ByteWatcher(self), HeadWatcher(self)) }

    /// The connection became an event stream: its own liveness checks take over.
    func stop() {
        stopped = true
        deadline = nil
        cancelTimer()
    }

    // MARK: events

    fileprivate func bytesArrived() {
        guard !stopped, requestsInFlight == 0, !awaitingHead else { return }
        awaitingHead = true
        // The timer is moved in `readComplete` if the head is still incomplete then.
        deadline = settings.headerTimeout.map { .now() + $0 }
    }

    fileprivate func readComplete() {
        guard !stopped, awaitingHead, let deadline, deadline < timerAt else { return }
        setDeadline(deadline, arm: true)
    }

    /// The client shut its side: with no request in flight none can come any more, and the
    /// server allows half-closure, so nothing else would close the connection before a timeout.
    fileprivate func inputClosed() {
        guard !stopped, requestsInFlight == 0 else { return }
        cut()
    }

    /// Closes the connection at once, from the front of the pipeline.
    private func cut() {
        stop()
        if let frontContext { frontContext.close(promise: nil) } else { channel.close(promise: nil) }
    }

    /// Graceful shutdown: a connection between requests (or that never sent one) is closed now;
    /// one with a request in flight is closed after its response by Hummingbird's
    /// `HTTPConnectionStateHandler`, or, when it is becoming an event stream, by the stream
    /// (`ChirpServerChannel` hands the event on). Without this, a connection that sent nothing
    /// would hold the shutdown until its head timeout.
    fileprivate func quiesce() {
        quiescing = true
        guard !stopped, requestsInFlight == 0 else { return }
        cut()
    }

    fileprivate func headArrived(_ head: HTTPRequestHead) -> Bool {
        requestsInFlight += 1
        awaitingHead = false
        deadline = nil
        if let proxyPeer { return attribute(to: settings.proxies.client(peer: proxyPeer, headers: head.headers)) }
        return true
    }

    fileprivate func responseEnded() {
        requestsInFlight -= 1
        guard !stopped, requestsInFlight == 0, !awaitingHead else { return }
        if let timeout = settings.idleTimeout { setDeadline(.now() + timeout, arm: false) } else { deadline = nil }
    }

    /// Counts a proxied connection against the client its request names; false when that
    /// client already holds the most connections allowed.
    private func attribute(to client: ClientAddress) -> Bool {
        guard client != counted else { return true }
        if let counted { settings.limiter.release(counted) }
        counted = nil
        guard settings.limiter.acquire(client) else { return false }
        counted = client
        return true
    }

    private func finish() {
        stop()
        settings.metrics?.openConnections.decrement()
        if let counted { settings.limiter.release(counted) }
        counted = nil
    }

    // MARK: the timer

    /// Sets the deadline; with `arm`, makes sure the timer fires by then (else a timer firing
    /// earlier is enough, and none at all is scheduled here).
    private func setDeadline(_ deadline: NIODeadline, arm: Bool) {
        self.deadline = deadline
        if timer == nil {
            schedule(at: deadline)
        } else if arm, deadline < timerAt {
            cancelTimer()
            schedule(at: deadline)
        }
    }

    private func schedule(at when: NIODeadline) {
        let loop = channel.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        timerAt = when
        timer = loop.scheduleTask(deadline: when) { bound.value.timerFired() }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerAt = .distantFuture
    }

    private func timerFired() {
        timer = nil
        timerAt = .distantFuture
        guard !stopped, requestsInFlight == 0, let deadline else { return }
        if deadline <= .now() {
            cut()
        } else {
            schedule(at: deadline)
        }
    }
}

extension ConnectionGuard {
    /// At the front of the pipeline (before TLS, if any): notes a request's first byte.
    final class ByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let connectionGuard: ConnectionGuard

        fileprivate init(_ connectionGuard: ConnectionGuard) {
            self.connectionGuard = connectionGuard
        }

        func handlerAdded(context: ChannelHandlerContext) {
            connectionGuard.frontContext = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            connectionGuard.frontContext = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            connectionGuard.bytesArrived()
            context.fireChannelRead(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            connectionGuard.readComplete()
            context.fireChannelReadComplete()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .inputClosed = event as? ChannelEvent { connectionGuard.inputClosed() }
            if event is ChannelShouldQuiesceEvent { connectionGuard.quiesce() }
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// After the HTTP decoder: notes heads and the ends of responses.
    final class HeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart
        private let connectionGuard: ConnectionGuard

        fileprivate init(_ connectionGuard: ConnectionGuard) {
            self.connectionGuard = connectionGuard
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data), !connectionGuard.headArrived(head) {
                context.close(promise: nil)  // a proxied client over its connection limit
                return
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { connectionGuard.responseEnded() }
            context.write(data, promise: promise)
        }
    }
}
