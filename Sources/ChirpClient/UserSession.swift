import ChirpDataCenter
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpPersistence
import Foundation

/// Everything one logged-in user's client needs, over their user context: the API client
/// carrying their token, their local database and data center, the message ledger, the
/// outbox, the sync engine and typing. Reads come from the local database; `refresh…` calls
/// bring it up to date through the data center.
public final class UserSession: Sendable {
    /// Whose session it is, as registered.
    public let username: String
    /// The user's context (directory, token, settings).
    public let context: UserContext
    public let api: ChirpAPIClient
    public let database: ClientDatabase
    public let dataCenter: DataCenter
    public let ledger: MessageLedger
    public let outbox: Outbox
    public let sync: SyncEngine
    /// Sends "typing" notices while the user types.
    public let typingSender: TypingSender

    /// Opens `context`'s database; `api` must carry the user's token.
    public init(context: UserContext, api: ChirpAPIClient, source: (any LiveEventSource)? = nil, clock: ClientClock = .live,
                outboxPersistence: Outbox.Persistence = .init()) throws {
        username = context.username
        self.context = context
        self.api = api
        database = try ClientDatabase(url: context.databaseURL)
        dataCenter = DataCenter(client: api.client)
        database.register(in: dataCenter)
        ledger = MessageLedger(database: database, username: context.username)
        outbox = Outbox(ledger: ledger, api: api, clock: clock, persistence: outboxPersistence)
        sync = SyncEngine(ledger: ledger, api: api, source: source ?? WebSocketEventSource(server: api.client.server), clock: clock)
        let api = api
        typingSender = TypingSender(clock: clock) { peer in _ = try? await api.send(ChirpEndpoints.Typing(to: peer)) }
    }

    /// Stores a message as pending and tries to send everything pending; returns the stored
    /// message (as it stands after the attempt) and the outbox report.
    public func send(_ text: String, to recipient: String) async throws -> (message: LocalMessage, report: OutboxReport) {
        let pending = try await outbox.enqueue(to: recipient, text: text)
        typingSender.stopped(to: recipient)
        let report = try await outbox.flush()
        let current = try await database.messages.fetch(id: pending.id) ?? pending
        return (current, report)
    }

    /// Sends the outbox, then applies every event missed: what `chirp sync` does.
    @discardableResult
    public func synchronize() async throws -> (outbox: OutboxReport, events: Int) {
        let report = try await outbox.flush()
        if let blocked = report.blockedBy, report.stillPending > 0, blocked.status == nil { throw blocked }
        let events = try await sync.catchUp()
        return (report, events)
    }

    /// Refreshes a conversation's newest messages.
    public func refreshMessages(with peer: String, limit: Int = 50) async throws {
        try await dataCenter.update(LocalMessage.self, with: ChirpEndpoints.ListMessages(with: peer, limit: limit))
    }

    /// Refreshes the conversation list.
    public func refreshConversations() async throws {
        try await dataCenter.update(ConversationSummary.self, with: ChirpEndpoints.ListConversations(page: PageParameters(limit: 100)))
    }

    /// Refreshes `owner`'s followers or following list (first 100).
    public func refreshFollows(_ relation: ChirpEndpoints.ListUsers.Relation, of owner: String) async throws {
        try await dataCenter.update(FollowEntry.self, with: ChirpEndpoints.ListUsers(relation, of: owner, page: PageParameters(limit: 100)))
    }

    /// Refreshes the newest page of the timeline.
    public func refreshTimeline(limit: Int = 50) async throws {
        try await dataCenter.update(TimelineEntry.self, with: ChirpEndpoints.Timeline(page: PageParameters(limit: limit)))
    }

    /// Marks everything `peer` sent so far as read (on the server and here).
    public func markRead(_ peer: String) async throws {
        let newest = try await database.messages.fetch(
            RecordQuery().filter("peer", .equal, .text(peer.lowercased())).filter("sender", .notEqual, .text(username))
                .order(by: "sortKey", ascending: false).limit(1)).first
        guard let newest, let serverId = newest.serverId, !newest.isOutgoing(for: username) else { return }
        _ = try await api.send(ChirpEndpoints.MarkRead(peer: peer, upTo: serverId))
        try await ledger.clearUnread(peer: peer)
    }

    /// Posts a tweet (idempotent by a fresh client id, so retries cannot post it twice) and
    /// adds it to the local timeline.
    public func tweet(_ text: String) async throws -> Tweet {
        let tweet = try await api.send(ChirpEndpoints.PostTweet(clientTweetId: UUID().uuidString, text: text))
        try await database.timeline.save([TimelineEntry(tweet)])
        return tweet
    }
}
