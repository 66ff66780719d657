import ChirpDataCenter
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpPersistence
import Foundation

/// One logged-in user's client, and the only way the terminal app, the CLI commands and the
/// client modules reach that user's data. Callers see plain values (`ConversationSummary`,
/// `LocalMessage`, `FollowEntry`, `TimelineEntry`); the database, its repositories and the
/// writers behind them are internal to ChirpClient.
///
/// - Reads come from the local database; `refresh: true` first brings it up to date from the
///   server through the `DataCenter` (fresh-enough skipping, one call for concurrent asks),
///   which hands each reply to `LocalLedger`, the one writer of every local table.
/// - Writes: `enqueue` stores a pending row and returns it before any network call; the
///   outbox's single-flight drain sends it in the background (`send` also waits for it).
/// - `changes()` is one stream of what the ledger wrote; `sync` keeps the database in step
///   with the server's events.
public final class UserSession: Sendable {
    /// Whose session it is, as registered.
    public let username: String
    /// The user's context (directory, token, settings).
    public let context: UserContext
    /// The network client carrying the user's token (for calls that keep nothing locally).
    public let api: ChirpAPIClient
    /// Keeps the local database in step with the user's event stream.
    public let sync: SyncEngine
    let database: ClientDatabase
    let dataCenter: DataCenter
    let ledger: LocalLedger
    /// This installation's device and the members' devices: seals and opens envelopes.
    let crypto: MessageCrypto
    let outbox: Outbox
    let typingSender: TypingSender
    /// Upload and download progress (`mediaTransfers()`).
    let transfers = MediaTransferFeed()
    let uploader: MediaUploader
    /// Downloaded media (`download(_:to:)`).
    public let mediaCache: MediaCache

    /// Opens `context`'s database; `api` must carry the user's token. `outboxRetries` is how
    /// the network layer retries each send of the outbox.
    public init(
        context: UserContext, api: ChirpAPIClient, source: (any LiveEventSource)? = nil, clock: ClientClock = .live,
        outboxRetries: RetryPolicy? = nil
    ) throws {
        username = context.username
        self.context = context
        self.api = api
        database = try ClientDatabase(url: context.databaseURL)
        let crypto = MessageCrypto(
            username: context.username,
            device: ThisDevice(directory: context.directory, database: database, api: api),
            directory: DeviceDirectory(api: api, database: database), database: database, api: api)
        self.crypto = crypto
        let ledger = LocalLedger(database: database, username: context.username, crypto: crypto)
        self.ledger = ledger
        dataCenter = DataCenter(client: api.client, now: clock.now)
        ledger.register(in: dataCenter)
        uploader = MediaUploader(api: api, feed: transfers)
        mediaCache = MediaCache(directory: context.directory.appendingPathComponent("media-cache"))
        let outbox = Outbox(ledger: ledger, api: api, retries: outboxRetries ?? Outbox.sendRetries, uploader: uploader)
        self.outbox = outbox
        // Back online: what was queued goes out, without holding up the stream.
        let center = dataCenter
        sync = SyncEngine(
            ledger: ledger, api: api, source: source ?? WebSocketEventSource(server: api.client.server), clock: clock,
            onLive: { _ = await outbox.drain() }, onUnblock: { await Self.refreshAfterUnblock(center) })
        let api = api
        typingSender = TypingSender(clock: clock) { peer in _ = try? await api.send(ChirpEndpoints.Typing(to: peer)) }
    }

    // MARK: reads

    /// The conversation list, latest first; with `includingFollowers`, followers not written to
    /// yet follow it (they can be). Message requests are left out (`requests(refresh:)`), and
    /// so are followers whose request waits. With `refresh`, brought up to date from the server
    /// first (its errors are thrown).
    public func conversations(refresh: Bool, includingFollowers: Bool = true) async throws -> [ConversationSummary] {
        if refresh {
            try await dataCenter.update(
                ConversationSummary.self, with: ChirpEndpoints.ListConversations(page: PageParameters(limit: 100)))
            if includingFollowers {
                try await dataCenter.update(
                    FollowEntry.self,
                    with: ChirpEndpoints.ListUsers(.followers, of: username, page: PageParameters(limit: 100)))
            }
        }
        let conversations = try await database.conversations.fetch(ConversationSummary.newestFirst)
        guard includingFollowers else { return conversations }
        let requests = try await database.conversations.fetch(ConversationSummary.requestsNewestFirst)
        let known = Set((conversations + requests).map(\.id))
        let followers = try await database.follows.fetch(FollowEntry.list("followers", of: username))
        return conversations
            + followers.filter { !known.contains($0.username.lowercased()) }.map(ConversationSummary.init(follower:))
    }

    /// `owner`'s followers or following list (first 100), newest follow first.
    public func follows(_ relation: ChirpEndpoints.ListUsers.Relation, of owner: String, refresh: Bool) async throws
        -> [FollowEntry]
    {
        let request = ChirpEndpoints.ListUsers(relation, of: owner, page: PageParameters(limit: 100))
        if refresh { try await dataCenter.update(FollowEntry.self, with: request) }
        return try await database.follows.fetch(FollowEntry.list(request.relationName, of: owner))
    }

    /// The newest `limit` tweets of the timeline, newest first.
    public func timeline(limit: Int, refresh: Bool) async throws -> [TimelineEntry] {
        if refresh {
            try await dataCenter.update(
                TimelineEntry.self, with: ChirpEndpoints.Timeline(page: PageParameters(limit: min(max(limit, 1), 100))))
        }
        return try await database.timeline.fetch(TimelineEntry.newestFirst.limit(limit))
    }

    /// Messages waiting to be sent, in the order they were written.
    public func pendingMessages() async throws -> [LocalMessage] {
        try await database.pendingMessages()
    }

    /// A user's profile, from the server (nothing is stored).
    public func profile(_ username: String) async throws -> User {
        try await api.send(ChirpEndpoints.GetUser(username))
    }

    /// This user's own profile, from the server (nothing is stored).
    public func me() async throws -> User {
        try await api.send(ChirpEndpoints.Me())
    }

    // MARK: writes

    /// Stores a message as pending and returns it at once (no network call waited for); the
    /// outbox's drain sends it in the background. Throws `OutboxError.invalidText` (nothing
    /// stored) for an empty or too long text. `attachments` are files (at most 4; the text may
    /// then be empty): the outbox uploads them, in order, before it sends the message, resuming
    /// after a cut or a restart (`OutboxError.invalidAttachment` when one cannot be read).
    /// `replyTo` is the `LocalMessage.id` (local id) of the message of this conversation it
    /// answers, which may itself still be pending.
    @discardableResult
    public func enqueue(_ text: String, to peer: String, attachments: [URL] = [], replyTo: String? = nil) async throws
        -> LocalMessage
    {
        try await enqueueAndDrain(
            text, to: peer, attachments: attachments, replyTo: try await replyReference(replyTo, with: peer)
        ).message
    }

    /// Stores a message as pending and waits for the drain that tries it; returns the message
    /// as it stands after that (sent, still pending, or failed) and what the drain did.
    /// `attachments` and `replyTo` as for `enqueue(_:to:attachments:replyTo:)`.
    public func send(
        _ text: String, to peer: String, attachments: [URL] = [], replyTo: String? = nil
    ) async throws -> (message: LocalMessage, report: OutboxReport) {
        let (pending, drain) = try await enqueueAndDrain(
            text, to: peer, attachments: attachments, replyTo: try await replyReference(replyTo, with: peer))
        let report = try await drain.value
        let current = try await database.messages.fetch(id: pending.id) ?? pending
        return (current, report)
    }

    private func enqueueAndDrain(
        _ text: String, to peer: String, attachments: [URL] = [], replyTo: String? = nil
    ) async throws -> (message: LocalMessage, drain: Task<OutboxReport, any Error>) {
        try await checkCanSend(to: peer)
        let queued = try await outbox.enqueue(to: peer, text: text, attachments: attachments, replyTo: replyTo)
        typingSender.stopped(to: peer)
        return queued
    }

    /// Puts a failed message back in the outbox and waits for the drain that tries it again.
    /// Throws `OutboxError.notFailed` if `localId` names no failed message.
    @discardableResult
    public func retry(_ localId: String) async throws -> OutboxReport {
        try await outbox.retry(localId)
    }

    /// Sends what the outbox holds: starts a drain or, while one runs, waits for the pass after
    /// it (so everything pending now is tried). Any number of callers share the passes.
    @discardableResult
    public func drainOutbox() async throws -> OutboxReport {
        try await outbox.drain().value
    }

    /// Sends the outbox, then applies every event missed: what `chirp sync` does. Throws when
    /// the server cannot be reached and messages wait.
    @discardableResult
    public func synchronize() async throws -> (outbox: OutboxReport, events: Int) {
        await keepDeviceRegistered()
        let report = try await drainOutbox()
        if let blocked = report.blockedBy, report.stillPending > 0, blocked.status == nil { throw blocked }
        let events = try await sync.catchUp()
        return (report, events)
    }

    /// Marks everything `peer` sent so far as read (on the server and here).
    public func markRead(_ peer: String) async throws {
        let newest = try await database.messages.fetch(
            RecordQuery().filter("peer", .equal, .text(peer.lowercased())).filter("sender", .notEqual, .text(username))
                .order(by: "sortKey", ascending: false).limit(1)
        ).first
        guard let newest, let serverId = newest.serverId, !newest.isOutgoing(for: username) else { return }
        _ = try await api.send(ChirpEndpoints.MarkRead(peer: peer, upTo: serverId))
        try await ledger.clearUnread(peer: peer)
    }

    /// Posts a tweet (idempotent by a fresh client id, so retries cannot post it twice) and
    /// adds it to the local timeline.
    public func tweet(_ text: String) async throws -> Tweet {
        let tweet = try await api.send(ChirpEndpoints.PostTweet(clientTweetId: UUID().uuidString, text: text))
        try await ledger.add(timeline: [TimelineEntry(tweet)])
        return tweet
    }

    /// Follows `username` (their tweets join the timeline).
    public func follow(_ username: String) async throws {
        _ = try await api.send(ChirpEndpoints.Follow(username))
    }

    /// Stops following `username`.
    public func unfollow(_ username: String) async throws {
        _ = try await api.send(ChirpEndpoints.Unfollow(username))
    }

    // MARK: safety

    /// Blocks `username`: the server ends the follows between you both ways, and they can no
    /// longer message or follow you. Their conversation and tweets leave the local lists at
    /// once (their messages stay stored).
    public func block(_ username: String) async throws {
        _ = try await api.send(ChirpEndpoints.Block(username))
        try await ledger.removeBlocked(username)
    }

    /// Unblocks `username`; the conversation list and the timeline are refreshed to bring back
    /// what the block hid.
    public func unblock(_ username: String) async throws {
        _ = try await api.send(ChirpEndpoints.Unblock(username))
        await Self.refreshAfterUnblock(dataCenter)
    }

    /// The users this user blocked, newest block first (one page; from the server).
    public func blocks(limit: Int = 100, cursor: String? = nil) async throws -> Page<User> {
        try await api.send(
            ChirpEndpoints.ListBlocks(page: PageParameters(limit: min(max(limit, 1), 100), cursor: cursor)))
    }

    /// Reports `username` (optionally one message of your conversation with them) to the
    /// server's operators; returns the report's id. An encrypted message this device opened is
    /// reported with its content key and plaintext, which the server verifies against the
    /// envelope it holds (API.md part 4): the only way its operators read it.
    @discardableResult
    public func report(_ username: String, messageId: String? = nil, reason: ReportReason, note: String? = nil)
        async throws -> String
    {
        var request = ReportRequest(username: username, messageId: messageId, reason: reason.rawValue, note: note)
        if let messageId,
            let message = try await database.messages.fetch(
                RecordQuery().filter("serverId", .equal, .text(messageId))
            ).first(where: { $0.sender.lowercased() == username.lowercased() }),
            let evidence = await crypto.reportEvidence(of: message)
        {
            (request.contentKey, request.plaintext) = (evidence.contentKey, evidence.plaintext)
        }
        return try await api.send(ChirpEndpoints.Report(request)).id
    }

    /// Refreshes the conversation list and the timeline (a refresh that fails leaves the local
    /// rows; the next refresh brings them).
    static func refreshAfterUnblock(_ center: DataCenter) async {
        _ = try? await center.update(
            ConversationSummary.self, with: ChirpEndpoints.ListConversations(page: PageParameters(limit: 100)))
        _ = try? await center.update(
            TimelineEntry.self, with: ChirpEndpoints.Timeline(page: PageParameters(limit: 100)))
    }

    // MARK: live

    /// Every change the ledger writes from now on (messages of a conversation, the conversation
    /// list, a follow list, the timeline), until the consumer stops.
    public func changes() -> AsyncStream<LocalChange> {
        ledger.changes.stream()
    }

    /// A keystroke in the conversation with `peer`: sends a "typing" notice when one is due.
    public func typing(to peer: String) async {
        await typingSender.keystroke(to: peer)
    }
}
