import NIOCore
import NIOHTTP1
import NIOPosix

/// What one load connection sends and what it does with each answer. Built once per
/// connection; called on the connection's event loop for every request.
struct LoadPlan: Sendable {
    /// The request for the connection's `turn`-th exchange (0, 1, 2, …) and its body, if any.
    var request: @Sendable (_ turn: Int) -> (head: HTTPRequestHead, body: ByteBuffer?)
    /// Called with the status and the time from the first byte written to the end of the answer.
    var completed: @Sendable (_ turn: Int, _ status: Int, _ nanoseconds: UInt64) -> Void
    /// No new request is started at or after this moment.
    var deadline: NIODeadline
    /// With a rate: one request per interval (the next starts at its slot, or at once when late).
    var interval: TimeAmount?
    /// With a rate: how far into the first interval this connection's first slot is, so that
    /// connections sharing a rate spread their requests evenly instead of sending in bursts.
    var phase: TimeAmount = .zero
}

/// One keep-alive HTTP/1.1 connection of the load generator, driven entirely on its event
/// loop: the next request is written as soon as the answer to the last one has ended (or at
/// its slot with a rate). No task, lock or copy per request beyond the request itself, so the
/// generator takes as little of the machine's CPU as possible from the server it measures.
final class LoadConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let plan: LoadPlan
    private let finished: EventLoopPromise<Void>
    private var turn = 0
    private var status = 0
    private var sentAt: UInt64 = 0
    private var nextSlot: NIODeadline

    private init(plan: LoadPlan, finished: EventLoopPromise<Void>) {
        self.plan = plan
        self.finished = finished
        nextSlot = .now()
    }

    /// Connects to `host:port` and runs `plan` until its deadline; the future completes when
    /// the connection has stopped (failing if it broke before the deadline).
    static func run(
        plan: LoadPlan, host: String, port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) -> EventLoopFuture<Void> {
        let loop = group.next()
        let finished = loop.makePromise(of: Void.self)
        ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(LoadConnection(plan: plan, finished: finished))
                }
            }
            .connect(host: host, port: port)
            .whenFailure { finished.fail($0) }
        return finished.futureResult
    }

    func channelActive(context: ChannelHandlerContext) {
        nextSlot = .now() + plan.phase - (plan.interval ?? .zero)
        startNext(context: context)
        context.fireChannelActive()
    }

    private func startNext(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        guard now < plan.deadline else {
            finished.succeed()
            context.close(promise: nil)
            return
        }
        if let interval = plan.interval {
            nextSlot = nextSlot + interval
            if nextSlot > now {
                context.eventLoop.assumeIsolated().scheduleTask(deadline: nextSlot) { self.write(context: context) }
                return
            }
        }
        write(context: context)
    }

    private func write(context: ChannelHandlerContext) {
        let (head, body) = plan.request(turn)
        sentAt = NIODeadline.now().uptimeNanoseconds
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body:
            break
        case .end:
            plan.completed(turn, status, NIODeadline.now().uptimeNanoseconds &- sentAt)
            turn += 1
            startNext(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if NIODeadline.now() < plan.deadline {
            finished.fail(ChannelError.ioOnClosedChannel)
        } else {
            finished.succeed()
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finished.fail(error)
        context.close(promise: nil)
    }
}
