import HTTPTypes
import Hummingbird
import HummingbirdCore
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
struct ChirpServerChannel: ServerChildChannel, HTTPChannelHandler {
    enum UpgradeResult: Sendable {
        case stream
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let stream: EventStream
    /// The largest frame a client may send (larger ones close the stream with 1009).
    let maxFrameSize: Int

    /// The server builder for `Application(server:)`.
    static func builder(stream: EventStream, maxFrameSize: Int) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ChirpServerChannel(responder: responder, stream: stream, maxFrameSize: maxFrameSize)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let stream = self.stream
        return channel.eventLoop.makeCompletedFuture {
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let granted = NIOLoopBoundBox<EventStream.Grant?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    let promise = channel.eventLoop.makePromise(of: EventStream.Grant?.self)
                    let target = head.uri
                    let authorization = head.headers.first(name: "authorization")
                    promise.completeWithTask { await stream.authorize(target: target, authorization: authorization) }
                    return promise.futureResult.map { grant in
                        granted.value = grant
                        return grant == nil ? nil : HTTPHeaders()
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let grant = granted.value else { throw ChannelError.inappropriateOperationForState }
                        try channel.pipeline.syncOperations.addHandler(stream.connection(for: grant))
                        return UpgradeResult.stream
                    }
                })
            let serverUpgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? UpgradeResult.failedUpgrade(http) : UpgradeResult.notUpgraded(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(upgradeConfiguration: serverUpgrade)
            configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false  // Hummingbird handles these
            configuration.enableResponseHeaderValidation = false  // Swift HTTP Types validate already
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
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
            case .failedUpgrade(let http):
                await Self.refuseUpgrade(http)
            }
        } catch {
            logger.debug("connection ended before its first request was handled", metadata: ["error": "\(error)"])
        }
    }

    /// An upgrade that was asked for and refused (bad token or `since`): 400 and close, as
    /// Hummingbird does.
    private static func refuseUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>) async {
        try? await http.executeThenClose { _, outbound in
            let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }
    }
}
