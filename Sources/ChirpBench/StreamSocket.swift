import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// One event-stream WebSocket of the load generator (`GET /v1/events/stream`), handled on its
/// event loop: each text frame is handed to `onText` as bytes, pings are answered, nothing is
/// decoded into values, so thousands of these cost the generator little. How the stream ends
/// (the server's close frame, an error here, or neither) is noted in its `StreamEnding`.
final class StreamSocket: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let onText: @Sendable (ByteBuffer) -> Void
    private let ending: StreamEnding

    private init(ending: StreamEnding, onText: @escaping @Sendable (ByteBuffer) -> Void) {
        self.ending = ending
        self.onText = onText
    }

    /// Opens the stream for `token` (from `since`), from `source` (a local address to bind, so
    /// that many connections can come from many loopback addresses) when given; returns the
    /// channel once upgraded. Why it ends is noted in `ending`.
    static func open(
        host: String, port: Int, token: String, since: Int64 = 0, source: SocketAddress? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, ending: StreamEnding = StreamEnding(),
        onText: @escaping @Sendable (ByteBuffer) -> Void
    ) async throws -> any Channel {
        var bootstrap = ClientBootstrap(group: group).channelOption(.socketOption(.tcp_nodelay), value: 1)
        if let source { bootstrap = bootstrap.bind(to: source) }
        // Without an upgrade the answer goes on down the pipeline: its status says why.
        let refusal = RefusalReader()
        let (channel, upgraded) =
            try await bootstrap
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandlers(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                                    maxAccumulatedFrameSize: 1 << 20),
                                StreamSocket(ending: ending, onText: onText))
                            return true
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Authorization", value: "Bearer \(token)")
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(
                        version: .http1_1, method: .GET, uri: "/v1/events/stream?since=\(since)", headers: headers)
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(refusal)
                                return false
                            }
                        })
                    // The server's first frames can come in the same read as its 101: they are
                    // handed on to the WebSocket decoder (NIO drops them by default, and the
                    // decoder then began mid-frame: a protocol error, or a wait for good).
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade)
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: pipeline)
                    return (channel, negotiated)
                }
            }
        guard try await upgraded.get() else {
            // The answer is handed on in the same turn of the event loop as the result: wait for the turn to end.
            try? await channel.eventLoop.submit {}.get()
            channel.close(promise: nil)
            throw StreamSocketRefused(status: refusal.status)
        }
        return channel
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            onText(frame.data)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self)
            ending.note(.closeFrame(code: code, reason: data.readString(length: data.readableBytes) ?? ""))
            context.close(promise: nil)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ending.note(.clientError(String(describing: error)))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ending.note(.dropped)
        context.fireChannelInactive()
    }
}

/// The server answered the event-stream request without upgrading (for example 401).
struct StreamSocketRefused: Error, CustomStringConvertible {
    /// The answer's status, when it was read.
    var status: HTTPResponseStatus?

    var description: String {
        "the server did not upgrade the event stream to a WebSocket"
            + (status.map { " (it answered \($0.code) \($0.reasonPhrase))" } ?? "")
    }
}

/// Keeps the status of an answer that refused the upgrade.
private final class RefusalReader: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let head = Mutex<HTTPResponseStatus?>(nil)

    var status: HTTPResponseStatus? { head.withLock { $0 } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let response) = unwrapInboundIn(data) { head.withLock { $0 = response.status } }
    }
}
