import ChirpModels
import ChirpNetworking

/// The Chirp HTTP API (shared/API.md) as `ChirpNetworking` endpoints, one value per call.
/// Paths come from `ChirpModels.APIRoute`, the table the server registers its routes from.
public enum ChirpEndpoints {
    /// `POST /v1/accounts`.
    public struct CreateAccount: Endpoint {
        public typealias Response = AuthResponse
        public var body: RegisterRequest?
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.createAccount.path() }
        public var headers: [String: String] { ["User-Agent": ChirpEndpoints.userAgent] }
        /// Creates the call.
        public init(_ request: RegisterRequest) { body = request }
    }

    /// `POST /v1/sessions`.
    public struct Login: Endpoint {
        public typealias Response = AuthResponse
        public var body: LoginRequest?
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.login.path() }
        public var headers: [String: String] { ["User-Agent": ChirpEndpoints.userAgent] }
        /// Creates the call.
        public init(_ request: LoginRequest) { body = request }
    }

    /// `DELETE /v1/sessions/current`.
    public struct Logout: Endpoint {
        public typealias Response = EmptyResponse
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.logout.path() }
        /// Creates the call.
        public init() {}
    }

    /// `GET /v1/me`.
    public struct Me: Endpoint {
        public typealias Response = User
        public var path: String { APIRoute.me.path() }
        /// Creates the call.
        public init() {}
    }

    /// `GET /v1/users/{username}`.
    public struct GetUser: Endpoint {
        public typealias Response = User
        /// The user the call is about.
        public var username: String
        public var path: String { APIRoute.user.path(["username": username]) }
        /// Creates the call.
        public init(_ username: String) { self.username = username }
    }

    /// `PUT /v1/users/{username}/follow` (idempotent).
    public struct Follow: Endpoint {
        public typealias Response = EmptyResponse
        /// The user the call is about.
        public var username: String
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.follow.path(["username": username]) }
        /// Creates the call.
        public init(_ username: String) { self.username = username }
    }

    /// `DELETE /v1/users/{username}/follow` (idempotent).
    public struct Unfollow: Endpoint {
        public typealias Response = EmptyResponse
        /// The user the call is about.
        public var username: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.unfollow.path(["username": username]) }
        /// Creates the call.
        public init(_ username: String) { self.username = username }
    }

    /// `GET /v1/users/{username}/followers` or `…/following`.
    public struct ListUsers: Endpoint {
        public typealias Response = Page<User>
        /// Which list of `username` to read.
        public enum Relation: Sendable { case followers, following }
        /// The user the call is about.
        public var username: String
        /// Followers or following.
        public var relation: Relation
        /// Which page of the list.
        public var page: PageParameters
        public var path: String {
            (relation == .followers ? APIRoute.followers : APIRoute.following).path(["username": username])
        }
        public var query: [(name: String, value: String)] { page.query }
        /// `followers` or `following`.
        public var relationName: String { relation == .followers ? "followers" : "following" }
        /// Creates the call.
        public init(_ relation: Relation, of username: String, page: PageParameters = .init()) {
            self.username = username
            self.relation = relation
            self.page = page
        }
    }

    /// `GET /v1/conversations`, or with `requests` `…?requests=true` (the message requests
    /// only).
    public struct ListConversations: Endpoint {
        public typealias Response = Page<Conversation>
        /// Which page of the list.
        public var page: PageParameters
        /// The requests this user has not answered instead of the conversations.
        public var requests: Bool
        public var path: String { APIRoute.conversations.path() }
        public var query: [(name: String, value: String)] { page.query + (requests ? [("requests", "true")] : []) }
        /// Creates the call.
        public init(page: PageParameters = .init(), requests: Bool = false) {
            self.page = page
            self.requests = requests
        }
    }

    /// `PUT /v1/conversations/{username}/messages/{clientMessageId}` (a group key:
    /// `/v1/groups/{id}/messages/{clientMessageId}`): idempotent by client id, so it is retried
    /// with the same id.
    public struct SendMessage: Endpoint {
        public typealias Response = Message
        /// Who receives the message, or a group's key (`ConversationKey`).
        public var recipient: String
        /// The sender's id for this message; a retry reuses it.
        public var clientMessageId: String
        /// The text to send.
        public var text: String
        /// Ids of media the sender uploaded, at most 4 (the text may then be empty).
        public var mediaIds: [String] = []
        /// The server id of the message of this conversation it answers.
        public var replyTo: String?
        /// In an encrypted conversation: the sealed message (`text` and `replyTo` are inside it
        /// and not sent beside it).
        public var envelope: Envelope?
        public var method: HTTPMethod { .put }
        public var path: String {
            APIRoute.path(.sendMessage, or: .sendGroupMessage, for: recipient, ["clientMessageId": clientMessageId])
        }
        public var body: SendMessageRequest? {
            if let envelope {
                return SendMessageRequest(envelope: envelope, mediaIds: mediaIds.isEmpty ? nil : mediaIds)
            }
            return SendMessageRequest(text: text, mediaIds: mediaIds.isEmpty ? nil : mediaIds, replyTo: replyTo)
        }
        /// How the network layer retries it (the outbox adds its own rounds on top).
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(to recipient: String, clientMessageId: String, text: String, replyTo: String? = nil) {
            self.recipient = recipient
            self.clientMessageId = clientMessageId
            self.text = text
            self.replyTo = replyTo
        }
    }

    /// `GET /v1/conversations/{username}/messages` with `before` / `after` bounds.
    public struct ListMessages: Endpoint {
        public typealias Response = Page<Message>
        /// The other person in the conversation.
        public var peer: String
        /// At most this many items.
        public var limit: Int?
        /// Only items older than this id.
        public var before: String?
        /// Only items newer than this id.
        public var after: String?
        public var path: String { APIRoute.path(.messages, or: .groupMessages, for: peer) }
        public var query: [(name: String, value: String)] {
            [("limit", limit.map(String.init)), ("before", before), ("after", after)].compactMap { name, value in
                value.map { (name, $0) }
            }
        }
        /// Creates the call.
        public init(with peer: String, limit: Int? = nil, before: String? = nil, after: String? = nil) {
            self.peer = peer
            self.limit = limit
            self.before = before
            self.after = after
        }
    }

    /// `POST /v1/conversations/{username}/read`: marking read twice is harmless, so retried.
    public struct MarkRead: Endpoint {
        public typealias Response = EmptyResponse
        /// The other person in the conversation.
        public var peer: String
        /// The newest message id read.
        public var upTo: String
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.path(.markRead, or: .markGroupRead, for: peer) }
        public var body: MarkReadRequest? { MarkReadRequest(upTo: upTo) }
        public var isIdempotent: Bool { true }
        /// Creates the call.
        public init(peer: String, upTo: String) {
            self.peer = peer
            self.upTo = upTo
        }
    }

    /// `POST /v1/conversations/{username}/typing`: live only, never retried (stale at once).
    public struct Typing: Endpoint {
        public typealias Response = EmptyResponse
        /// The other person in the conversation.
        public var peer: String
        public var method: HTTPMethod { .post }
        public var path: String { APIRoute.path(.typing, or: .groupTyping, for: peer) }
        public var retryPolicy: RetryPolicy { .none }
        /// Creates the call.
        public init(to peer: String) { self.peer = peer }
    }

    /// `PUT /v1/tweets/{clientTweetId}` (idempotent by client id).
    public struct PostTweet: Endpoint {
        public typealias Response = Tweet
        /// The author's id for this tweet; a retry reuses it.
        public var clientTweetId: String
        /// The text to send.
        public var text: String
        public var method: HTTPMethod { .put }
        public var path: String { APIRoute.putTweet.path(["clientTweetId": clientTweetId]) }
        public var body: TextBody? { TextBody(text: text) }
        /// Creates the call.
        public init(clientTweetId: String, text: String) {
            self.clientTweetId = clientTweetId
            self.text = text
        }
    }

    /// `DELETE /v1/tweets/{id}`.
    public struct DeleteTweet: Endpoint {
        public typealias Response = EmptyResponse
        /// The tweet's id.
        public var id: String
        public var method: HTTPMethod { .delete }
        public var path: String { APIRoute.deleteTweet.path(["id": id]) }
        /// Creates the call.
        public init(id: String) { self.id = id }
    }

    /// `GET /v1/users/{username}/tweets`.
    public struct UserTweets: Endpoint {
        public typealias Response = Page<Tweet>
        /// The user the call is about.
        public var username: String
        /// Which page of the list.
        public var page: PageParameters
        public var path: String { APIRoute.userTweets.path(["username": username]) }
        public var query: [(name: String, value: String)] { page.query }
        /// Creates the call.
        public init(_ username: String, page: PageParameters = .init()) {
            self.username = username
            self.page = page
        }
    }

    /// `GET /v1/timeline`.
    public struct Timeline: Endpoint {
        public typealias Response = Page<Tweet>
        /// Which page of the list.
        public var page: PageParameters
        public var path: String { APIRoute.timeline.path() }
        public var query: [(name: String, value: String)] { page.query }
        /// Creates the call.
        public init(page: PageParameters = .init()) { self.page = page }
    }

    /// `GET /v1/events`: the stream after `since`, long-polling up to `wait` seconds.
    public struct Events: Endpoint {
        public typealias Response = EventsResponse
        /// The last seq already seen.
        public var since: Int64
        /// At most this many items.
        public var limit: Int?
        /// Seconds to wait for an event when there is none yet.
        public var wait: Int?
        public var path: String { APIRoute.events.path() }
        public var query: [(name: String, value: String)] {
            [("since", String(since))]
                + [("limit", limit.map(String.init)), ("wait", wait.map(String.init))].compactMap { name, value in
                    value.map { (name, $0) }
                }
        }
        /// How the network layer retries it.
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(since: Int64, limit: Int? = nil, wait: Int? = nil) {
            self.since = since
            self.limit = limit
            self.wait = wait
        }
    }

    /// `GET /healthz`.
    public struct Health: Endpoint {
        public typealias Response = HealthStatus
        public var path: String { APIRoute.health.path() }
        /// Creates the call.
        public init() {}
    }
}

/// `limit` and `cursor` of a newest-first list.
public struct PageParameters: Sendable, Hashable {
    /// At most this many items.
    public var limit: Int?
    /// The `nextCursor` of the previous page.
    public var cursor: String?

    /// Creates the call.
    public init(limit: Int? = nil, cursor: String? = nil) {
        self.limit = limit
        self.cursor = cursor
    }

    var query: [(name: String, value: String)] {
        [("limit", limit.map(String.init)), ("cursor", cursor)].compactMap { name, value in value.map { (name, $0) } }
    }
}
