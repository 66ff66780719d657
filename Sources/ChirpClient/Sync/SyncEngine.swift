import ChirpModels
import ChirpNetworking
import Foundation
import Logging

/// Keeps the local database in step with the user's event stream.
///
/// `catchUp()` reads every stored event after the cursor over HTTP. `run` keeps a live
/// WebSocket open: it catches up first, streams from the cursor, and after a drop reconnects
/// with exponential backoff, resuming after the last applied seq. If the WebSocket cannot be
/// opened while HTTP works, it long-polls `GET /v1/events` between attempts.
///
/// Events are applied idempotently: a seq at or below the cursor is skipped, a seq beyond the
/// next one first fills the gap over HTTP, and every change is written through `LocalLedger`
/// (messages, conversations, follows, the timeline and the cursor alike) as a merge, so
/// replays after a crash or a second process change nothing.
///
/// Failures of the live connection are the user's only through the status line, so `run`
/// logs them (`chirp.sync`): a connection that cannot be made as a warning, anything else
/// (the server answering with an error, an event that does not decode) as an error.
public actor SyncEngine {
    /// The live connection's state, for status bars and `watch`.
    public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
        case connecting
        case live
        /// The WebSocket is unavailable; events arrive by long-polling.
        case polling
        /// Waiting before reconnect attempt `attempt`.
        case reconnecting(attempt: Int, after: Duration, reason: String)

        public var description: String {
            switch self {
            case .connecting: "connecting"
            case .live: "live"
            case .polling: "polling"
            case .reconnecting(let attempt, let after, let reason):
                "reconnecting (attempt \(attempt) in \(after)): \(reason)"
            }
        }
    }

    let database: ClientDatabase
    let ledger: LocalLedger
    let api: ChirpAPIClient
    let source: any LiveEventSource
    let clock: ClientClock
    /// Remote typing, fed by `typing` events.
    public nonisolated let typing: TypingTracker
    /// Waits between reconnects.
    let backoff = RetryPolicy(maxRetries: .max, baseDelay: .milliseconds(250), maxDelay: .seconds(15), jitter: 0.5)
    /// Catch-up reads are safe to repeat, so a busy server (429, 503) gets more patience than
    /// the default; an unreachable one still fails fast enough for the CLI to say so.
    let catchUpRetries = RetryPolicy(maxRetries: 6, baseDelay: .milliseconds(100), maxDelay: .seconds(2))
    /// Long-poll wait when the WebSocket is unavailable.
    let pollWait = 25
    /// Called each time the live stream opens (the outbox drains then: back online).
    let onLive: @Sendable () async -> Void
    /// After a `block.deleted`: brings back what the block hid (the conversation list and the
    /// timeline, refreshed from the server).
    /// Reads the lists the stream did not bring again (an unblock, or events pruned before
    /// they were read).
    let onUnblock: @Sendable () async -> Void
    let logger: Logger
    private var cursor: Int64?
    private var failures = 0

    /// An engine for the user `ledger.username`.
    init(
        ledger: LocalLedger, api: ChirpAPIClient, source: any LiveEventSource, clock: ClientClock = .live,
        typing: TypingTracker? = nil,
        onLive: @escaping @Sendable () async -> Void = {}, onUnblock: @escaping @Sendable () async -> Void = {},
        logger: Logger = Logger(label: "chirp.sync")
    ) {
        self.onUnblock = onUnblock
        self.logger = logger
        self.database = ledger.database
        self.ledger = ledger
        self.api = api
        self.source = source
        self.clock = clock
        self.typing = typing ?? TypingTracker(clock: clock)
        self.onLive = onLive
    }

    /// The seq of the last applied event.
    public func lastSeq() async throws -> Int64 {
        if let cursor { return cursor }
        let stored = try await database.lastSeq()
        cursor = stored
        return stored
    }

    /// Applies every stored event after the cursor, fetched over HTTP; returns how many were
    /// applied. `onEvent` sees each applied event.
    @discardableResult
    public func catchUp(onEvent: @Sendable (Event) async -> Void = { _ in }) async throws -> Int {
        var applied = 0
        let startedAt = ledger.crypto?.device.now() ?? .now()
        while true {
            let since = try await lastSeq()
            var request = ChirpEndpoints.Events(since: since, limit: 500)
            request.retryPolicy = catchUpRetries
            let page = try await api.send(request)
            for event in page.events where try await apply(event) {
                applied += 1
                await onEvent(event)
            }
            if page.events.isEmpty || page.lastSeq <= since {
                // Read to the end: keys this device replaced before it began are done with.
                try? await ledger.crypto?.device.caughtUp(startedAt: startedAt)
                return applied
            }
        }
    }

    /// Stays connected until the task is cancelled, reporting applied events and state changes.
    public func run(
        onEvent: @escaping @Sendable (Event) async -> Void = { _ in },
        onState: @escaping @Sendable (ConnectionState) async -> Void = { _ in }
    ) async {
        failures = 0
        while !Task.isCancelled {
            var httpWorks = false
            let reason: String
            do {
                await onState(.connecting)
                try await catchUp(onEvent: onEvent)
                httpWorks = true
                let since = try await lastSeq()
                try await source.stream(
                    since: since, token: api.token,
                    onOpen: { await self.opened(onState) },
                    onEvent: { event in try await self.receive(event, onEvent: onEvent) })
                // A clean close (say, the server restarting): reconnect at once.
                if failures == 0 { continue }
                reason = "the server closed the stream"
            } catch {
                if Task.isCancelled { break }
                reason = Self.describe(error)
                log(error)
            }
            failures += 1
            if httpWorks, failures >= 2 {
                await onState(.polling)
                do {
                    _ = try await poll(onEvent: onEvent)
                } catch {
                    if Task.isCancelled { break }
                    log(error)
                }
                continue
            }
            let delay = backoff.delay(
                forAttempt: min(failures - 1, 20), random: Double.random(in: 0..<1), retryAfter: nil)
            await onState(.reconnecting(attempt: failures, after: delay, reason: reason))
            do { try await clock.sleep(delay) } catch { break }
        }
    }

    /// One long-poll round: waits up to `pollWait` seconds for events after the cursor.
    func poll(onEvent: @Sendable (Event) async -> Void) async throws -> Int {
        let page = try await api.send(ChirpEndpoints.Events(since: try await lastSeq(), limit: 500, wait: pollWait))
        var applied = 0
        for event in page.events where try await apply(event) {
            applied += 1
            await onEvent(event)
        }
        return applied
    }

    private func opened(_ onState: @Sendable (ConnectionState) async -> Void) async {
        failures = 0
        await onState(.live)
        await onLive()
    }

    /// A failure of the live connection, logged without the token or any message text: a
    /// connection that cannot be made (or breaks) is a warning, anything else an error.
    private func log(_ error: any Error) {
        let reason: String
        let unreachable: Bool
        switch error {
        case let error as NetworkError:
            reason = error.kind
            unreachable = error.status == nil && !Self.isDecoding(error)
        case let error as LiveStreamError:
            reason = error.isMalformedEvent ? "malformed event" : "stream closed or refused"
            unreachable = !error.isMalformedEvent
        default:
            reason = String(describing: type(of: error))
            unreachable = false
        }
        logger.log(
            level: unreachable ? .warning : .error, "sync failed",
            metadata: ["reason": "\(reason)", "failures": "\(failures + 1)"])
    }

    private static func isDecoding(_ error: NetworkError) -> Bool {
        if case .decoding = error { return true }
        return false
    }

    /// An event from the live stream: fills a gap first if there is one.
    func receive(_ event: Event, onEvent: @Sendable (Event) async -> Void) async throws {
        if let seq = event.seq, seq > (try await lastSeq()) + 1 {
            try await catchUp(onEvent: onEvent)
            return
        }
        if try await apply(event) { await onEvent(event) }
    }

    /// Applies one event to the local database; returns false when it was already applied
    /// (its seq is at or below the cursor). Live-only events (`typing`) are always applied.
    public func apply(_ event: Event) async throws -> Bool {
        if let seq = event.seq, seq <= (try await lastSeq()) { return false }
        let me = ledger.username.lowercased()
        switch event.payload {
        case .messageCreated(let message):
            // A group message from someone this user blocked is hidden (the server marks it).
            guard !message.fromBlocked else { break }
            let incoming = message.sender.lowercased() != me
            let key = message.group.map(ConversationKey.group) ?? message.sender
            // A first message from someone may be a message request: the requests say.
            let known = incoming ? try await ledger.hasConversation(with: key) : true
            try await ledger.record(message, fromStream: true)
            if incoming {
                if message.group != nil {
                    typing.noteMessage(from: message.sender, in: key)
                } else {
                    typing.noteMessage(from: message.sender)
                }
            }
            if !known { try await ledger.refreshConversations(requests: true, from: api) }
        case .messageUpdated(let message):
            try await ledger.applyUpdate(message)
        case .messageDeleted(let notice):
            try await ledger.applyDeletion(notice)
        case .messageRead(let receipt):
            if let group = receipt.group {
                // This user's own read on another device: nothing unread there any more.
                if receipt.reader.lowercased() == me {
                    try await ledger.clearUnread(peer: ConversationKey.group(group))
                } else {
                    try await ledger.markGroupRead(by: receipt.reader, group: group, upTo: receipt.upTo)
                }
            } else if receipt.reader.lowercased() != me {
                try await ledger.markRead(by: receipt.reader, upTo: receipt.upTo)
            }
        case .typing(let notice):
            if let group = notice.group {
                typing.noteTyping(from: notice.from, in: ConversationKey.group(group))
            } else {
                typing.noteTyping(from: notice.from)
            }
        case .followCreated(let notice):
            try await ledger.addFollower(notice.follower, seq: event.seq)
        case .tweetCreated(let tweet):
            try await ledger.add(timeline: [TimelineEntry(tweet)])
        case .blockCreated(let notice):
            try await ledger.removeBlocked(notice.username)
        case .blockDeleted:
            await onUnblock()
        case .eventsPruned:
            // What the pruned events said is in the lists: conversations (requests too), the
            // timeline; a conversation's history fills its gaps from the server when read.
            await onUnblock()
            try await ledger.refreshConversations(requests: true, from: api)
        case .userDeleted(let notice):
            try await ledger.forgetDeletedUser(notice.username)
        case .deviceChanged(let notice):
            await ledger.devicesChanged(of: notice.user)
        case .conversationUpdated(let conversation):
            try await ledger.applyAnswer(conversation)
            if !conversation.declined { try await ledger.applyMarks(conversation) }
            if conversation.encrypted { try await ledger.markEncrypted(ConversationSummary.key(of: conversation)) }
        case .groupCreated(let group):
            // Added by someone who may not message this user: the event says it is a request.
            try await ledger.store(group: group)
        case .groupUpdated(let group):
            try await ledger.store(group: group)
        case .groupRemoved(let notice):
            try await ledger.leave(group: notice.group)
        case .unknown:
            break
        }
        if let seq = event.seq {
            try await ledger.advanceCursor(to: seq)
            cursor = seq
        }
        return true
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? NetworkError { return error.description }
        if let error = error as? LiveStreamError { return error.description }
        return String(describing: error)
    }
}
