import ChirpModels
import NIOCore
import NIOWebSocket

/// One `GET /v1/events/stream` WebSocket after the upgrade: every stored event after `since`,
/// then live ones as they are committed, each as one text frame (API.md's Event object), with
/// `typing` live-only (`"seq": null`).
///
/// It is a NIO channel handler run on its connection's event loop, with no task of its own:
/// an idle stream is a channel, its handlers and an `EventListener`, which is what lets one
/// server hold tens of thousands of them. Storage is read by a short task when needed.
///
/// The stream pulls from storage after each wake-up rather than buffering pushed events, and
/// writes only while the socket is writable, so a slow reader only falls behind: memory per
/// connection stays bounded, and the client resumes from the last seq it saw when it
/// reconnects. A reader that stops reading altogether (the socket unwritable for
/// `writeStallLimit`) is disconnected, as is one that lets `EventListener.liveCapacity`
/// typing events pile up (close code 1008 with the reason), and so is the oldest stream of a
/// user who opens more than `StreamRoster.limit` (1008 `too many streams`). Liveness pings and the stall
/// check come from the server-wide `StreamKeeper`.
final class EventStreamConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long the socket may stay unwritable before the reader counts as gone.
    static let writeStallLimit: TimeAmount = .seconds(15)
    /// Events read from storage at a time.
    static let readPage = 500

    private let services: ServerServices
    private let roster: StreamRoster
    private let userId: Int64
    private let tokenHash: [UInt8]
    private var last: Int64
    private var context: ChannelHandlerContext?
    private var listener: EventListener?
    /// Storage must be read before the listener's hand-over can be trusted (at the start, and
    /// while a backlog longer than a page is being sent).
    private var needsRead = true
    private var reading = false
    private var pumpAgain = false
    private var closing = false
    private var stall = StallClock()
    private var pingOutstanding = false

    init(services: ServerServices, roster: StreamRoster, userId: Int64, tokenHash: [UInt8], since: Int64) {
        self.services = services
        self.roster = roster
        self.userId = userId
        self.tokenHash = tokenHash
        self.last = since
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        listener = services.hub.listen(userId: userId) { loop.execute { this.value.pump() } }
        services.keeper.add(ObjectIdentifier(self)) { ping in loop.execute { this.value.keep(ping: ping) } }
        services.metrics.openStreams.increment()
        roster.add(userId: userId, id: ObjectIdentifier(self), tokenHash: tokenHash) { reason in
            loop.execute { this.value.close(code: .policyViolation, reason: reason) }
        }
        loop.assumeIsolated().execute { self.pump() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    /// Unregisters from the hub and the keeper (once).
    private func release() {
        guard let listener else { return }
        services.hub.remove(listener)
        services.keeper.remove(ObjectIdentifier(self))
        roster.remove(userId: userId, id: ObjectIdentifier(self))
        services.metrics.openStreams.decrement()
        self.listener = nil
        closing = true
        context = nil
    }

    // MARK: sending events

    /// Sends whatever is new: the listener's hand-over when it is exactly the next seqs, else a
    /// page from storage; then the live events. One round at a time; a wake-up during a round
    /// starts another after it.
    private func pump() {
        guard !closing, let context, let listener else { return }
        if reading {
            pumpAgain = true
            return
        }
        guard context.channel.isWritable else {
            pumpAgain = true  // resumed by channelWritabilityChanged
            return
        }
        // Re-arm first: a commit from here on wakes us again; one before is in the hand-over
        // (or in storage).
        listener.rearm()
        if !needsRead, let events = listener.takeStoredEvents(after: last) {
            write(events, live: false, context: context)
            finishRound(context: context, listener: listener)
        } else {
            readStorage(context: context)
        }
    }

    private func readStorage(context: ChannelHandlerContext) {
        reading = true
        services.metrics.streamReads.increment()
        let events = services.events
        let userId = self.userId
        let since = last
        context.eventLoop.makeFutureWithTask {
            try await events.read(userId: userId, since: since, limit: Self.readPage)
        }
        .assumeIsolated().whenComplete { result in self.storageRead(result) }
    }

    private func storageRead(_ result: Result<EventSlice, any Error>) {
        reading = false
        guard !closing, let context, let listener else { return }
        switch result {
        case .failure:
            // Storage is unavailable: the client reconnects with its last seq.
            close(code: .unexpectedServerError, reason: "storage unavailable: reconnect with since=\(last)")
        case .success(let slice):
            if let pruned = slice.pruned { write([pruned], live: true, context: context) }
            write(slice.events, live: false, context: context)
            needsRead = slice.events.count == Self.readPage
            if needsRead { pumpAgain = true }
            finishRound(context: context, listener: listener)
        }
    }

    private func finishRound(context: ChannelHandlerContext, listener: EventListener) {
        if listener.overflowed {
            close(code: .policyViolation, reason: "slow consumer: reconnect with since=\(last)")
            return
        }
        write(listener.takeLiveEvents(), live: true, context: context)
        context.flush()
        if pumpAgain {
            pumpAgain = false
            pump()
        }
    }

    /// The longest header of a frame the server sends: 2 bytes and a 64-bit length, unmasked.
    static let frameHeaderRoom = 10

    private func write(_ events: [StoredEvent], live: Bool, context: ChannelHandlerContext) {
        for event in events {
            // Room in front for the frame's header, which NIO's encoder then writes in place
            // instead of as a buffer and a write of its own.
            var data = context.channel.allocator.buffer(
                capacity: Self.frameHeaderRoom + EventJSON.framing + event.type.utf8.count + event.json.utf8.count)
            data.moveWriterIndex(forwardBy: Self.frameHeaderRoom)
            data.moveReaderIndex(forwardBy: Self.frameHeaderRoom)
            EventJSON.write(event, live: live, into: &data)
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: data)), promise: nil)
            if !live { last = event.seq }
        }
        if !live { listener?.noteSent(upTo: last) }
    }

    // MARK: the connection

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        stall.writabilityChanged(writable: context.channel.isWritable)
        if context.channel.isWritable, pumpAgain {
            pumpAgain = false
            pump()
        }
        context.fireChannelWritabilityChanged()
    }

    /// Frames from the client: data is not used; pings are answered, pongs noted, a close
    /// answered and the connection closed.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            if closing {
                context.close(promise: nil)
            } else {
                closing = true
                var echo = frame.unmaskedData
                let code =
                    echo.readSlice(length: min(2, echo.readableBytes)) ?? context.channel.allocator.buffer(capacity: 0)
                send(WebSocketFrame(fin: true, opcode: .connectionClose, data: code), context: context, thenClose: true)
            }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            pingOutstanding = false
        default:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            // Graceful shutdown: tell the client to reconnect later.
            close(code: .goingAway, reason: "server shutting down")
        } else if case .inputClosed = event as? ChannelEvent {
            // The client shut its side (or went away): it can answer no ping and send no
            // close frame any more, and the server allows half-closure, so without this the
            // connection (and its place in the address's connection limit) lasted until the
            // next ping found it gone.
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Called by the keeper every few seconds: drops a reader whose socket has been unwritable
    /// too long; with `ping`, drops one that did not answer the last ping, else pings it.
    private func keep(ping: Bool) {
        guard !closing, let context else { return }
        if stall.isStalled(limit: Self.writeStallLimit) {
            closing = true
            context.close(promise: nil)
            return
        }
        guard ping else { return }
        if pingOutstanding {
            close(code: .goingAway, reason: "no answer to ping")
            return
        }
        pingOutstanding = true
        context.writeAndFlush(
            wrapOutboundOut(
                WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))),
            promise: nil)
    }

    /// Sends a close frame with `code` and `reason`, then closes the connection.
    private func close(code: WebSocketErrorCode, reason: String) {
        guard !closing, let context else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        send(WebSocketFrame(fin: true, opcode: .connectionClose, data: data), context: context, thenClose: true)
    }

    private func send(_ frame: WebSocketFrame, context: ChannelHandlerContext, thenClose: Bool) {
        let written = context.writeAndFlush(wrapOutboundOut(frame))
        guard thenClose else { return }
        written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
