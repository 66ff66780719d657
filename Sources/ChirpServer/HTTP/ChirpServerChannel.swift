import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// The server's connections: HTTP/1.1 for the API, and on `GET /v1/events/stream` the upgrade
/// to a WebSocket served by an `EventStreamConnection` on the event loop.
///
/// Hummingbird's own WebSocket channel runs a task (and a ping task) per connection for as long
/// as it is open; an event stream needs neither, so after the upgrade this channel leaves the
/// connection to its NIO handler and the Hummingbird task for it ends. Graceful shutdown still
/// reaches the streams: the server's quiescing sends each one `ChannelShouldQuiesceEvent`.
///
/// Every connection is admitted by a `ConnectionGuard` first: one from an address that already
/// holds the most connections allowed is closed before anything is read from it, and the others
/// get the head and idle timeouts until they become event streams.
struct ChirpServerChannel: ServerChildChannel, HTTPChannelHandler {
    enum UpgradeResult: Sendable {
        case stream
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade asked for and refused: answered `status` (400, or 503 when the token
        /// could not be checked) and closed.
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, status: HTTPResponse.Status)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let stream: EventStream
    /// The largest frame a client may send (larger ones close the stream with 1009).
    let maxFrameSize: Int
    /// Timeouts and the per-address connection limit.
    let limits: ConnectionGuard.Settings
    /// Whether connections arrive through TLS (requests then carry the `https` scheme).
    let secure: Bool

    /// The server builder for `Application(server:)`; with `tls`, Hummingbird's `TLSChannel`
    /// decrypts in front of everything here (so the guard and the limits see plain HTTP, and a
    /// handshake that never completes is cut by the head timeout like a silent connection).
    static func builder(stream: EventStream, maxFrameSize: Int, limits: ConnectionGuard.Settings, tls: ServerTLS?)
        -> HTTPServerBuilder
    {
        HTTPServerBuilder { responder in
            let plain = ChirpServerChannel(
                responder: responder, stream: stream, maxFrameSize: maxFrameSize, limits: limits, secure: tls != nil)
            guard let tls else { return plain }
            return try TLSChannel(plain, tlsConfiguration: tls.configuration)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let stream = self.stream
        let secure = self.secure
        guard let connectionGuard = ConnectionGuard.admit(channel, settings: limits) else {
            return Self.refuse(channel)
        }
        return channel.eventLoop.makeCompletedFuture {
            let (byteWatcher, headWatcher) = connectionGuard.handlers
            let protocolErrors = ProtocolErrorResponder()
            try channel.pipeline.syncOperations.addHandler(byteWatcher, position: .first)
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let granted = NIOLoopBoundBox<EventStream.Grant?>(nil, eventLoop: channel.eventLoop)
            let refusal = NIOLoopBoundBox<HTTPResponse.Status>(.badRequest, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    let promise = channel.eventLoop.makePromise(of: EventStream.Decision.self)
                    let target = head.uri
                    let authorization = head.headers.first(name: "authorization")
                    promise.completeWithTask { await stream.authorize(target: target, authorization: authorization) }
                    return promise.futureResult.map { decision in
                        switch decision {
                        case .granted(let grant):
                            granted.value = grant
                            return HTTPHeaders()
                        case .refused:
                            return nil
                        case .unavailable:
                            refusal.value = .serviceUnavailable
                            return nil
                        }
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let grant = granted.value else { throw ChannelError.inappropriateOperationForState }
                        connectionGuard.stop()
                        channel.pipeline.syncOperations.removeHandler(byteWatcher, promise: nil)
                        channel.pipeline.syncOperations.removeHandler(headWatcher, promise: nil)
                        channel.pipeline.syncOperations.removeHandler(protocolErrors, promise: nil)
                        try channel.pipeline.syncOperations.addHandler(stream.connection(for: grant))
                        // Shutdown began while the upgrade was being authorized: the stream ends too.
                        if connectionGuard.quiescing {
                            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
                        }
                        return UpgradeResult.stream
                    }
                })
            let serverUpgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: secure))
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel,
                            configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value
                            ? UpgradeResult.failedUpgrade(http, status: refusal.value) : UpgradeResult.notUpgraded(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(
                upgradeConfiguration: serverUpgrade)
            configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false  // ProtocolErrorResponder, with the error envelope
            configuration.enableResponseHeaderValidation = false  // Swift HTTP Types validate already
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: configuration)
            let upgradeHandler = try channel.pipeline.syncOperations.handler(
                type: NIOTypedHTTPServerUpgradeHandler<UpgradeResult>.self)
            try channel.pipeline.syncOperations.addHandler(protocolErrors, position: .before(upgradeHandler))
            try channel.pipeline.syncOperations.addHandler(headWatcher, position: .before(upgradeHandler))
            return Value(upgradeResult: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .stream:
                break  // the EventStreamConnection has the channel now
            case .notUpgraded(let http):
                await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
                    await handleHTTP(asyncChannel: http, logger: logger)
                }
            case .failedUpgrade(let http, let status):
                await Self.refuseUpgrade(http, status: status)
            }
        } catch {
            logger.debug("connection ended before its first request was handled", metadata: ["error": "\(error)"])
        }
    }

    /// A connection over its address's limit: closed as soon as it is active, nothing read.
    /// (Failing the set-up instead would close it too, but NIO reports that failure on the
    /// listening socket, which would end the server's accept loop.)
    private static func refuse(_ channel: any Channel) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            // Before TLS: no handshake, no close_notify.
            try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler(), position: .first)
            return Value(
                upgradeResult: channel.eventLoop.makeFailedFuture(ChannelError.alreadyClosed), channel: channel)
        }
    }

    /// An upgrade that was asked for and refused: 400 and close, as Hummingbird does, for a bad
    /// token or `since`; 503 with `Retry-After` when the database could not check the token
    /// (a 400 there told clients under load that their session was bad).
    private static func refuseUpgrade(
        _ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, status: HTTPResponse.Status
    ) async {
        try? await http.executeThenClose { _, outbound in
            var fields: HTTPFields = [.connection: "close", .contentLength: "0"]
            if status == .serviceUnavailable { fields[.retryAfter] = "1" }
            let head = HTTPResponse(status: status, headerFields: fields)
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }
    }
}

/// Closes a refused connection the moment it is active.
private final class RefusedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
