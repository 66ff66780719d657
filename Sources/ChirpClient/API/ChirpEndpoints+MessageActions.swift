import ChirpModels
import ChirpNetworking

extension ChirpEndpoints {
    /// `PUT` (add) or `DELETE` (remove) `/v1/conversations/{username}/messages/{messageId}/reactions/{emoji}`;
    /// both idempotent.
    public struct React: Endpoint {
        public typealias Response = EmptyResponse
        /// The other person of the conversation, or a group's key (`ConversationKey`).
        public var peer: String
        /// The message's server id.
        public var messageId: String
        /// One emoji (percent-encoded into the path).
        public var emoji: String
        /// Take the reaction back instead of adding it.
        public var remove: Bool
        public var method: HTTPMethod { remove ? .delete : .put }
        public var path: String {
            remove
                ? APIRoute.path(
                    .removeReaction, or: .removeGroupReaction, for: peer, ["messageId": messageId, "emoji": emoji])
                : APIRoute.path(
                    .addReaction, or: .addGroupReaction, for: peer, ["messageId": messageId, "emoji": emoji])
        }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ emoji: String, to messageId: String, with peer: String, remove: Bool = false) {
            self.peer = peer
            self.messageId = messageId
            self.emoji = emoji
            self.remove = remove
        }
    }

    /// `PATCH /v1/conversations/{username}/messages/{messageId}`: the sender's new text. The
    /// same text again changes nothing, so it is retried like an idempotent call.
    public struct EditMessage: Endpoint {
        public typealias Response = Message
        /// The other person of the conversation, or a group's key (`ConversationKey`).
        public var peer: String
        /// The message's server id.
        public var messageId: String
        /// The new text.
        public var text: String
        /// In an encrypted conversation: the new text sealed under the message's client id (sent
        /// in place of `text`).
        public var envelope: Envelope?
        public var method: HTTPMethod { .patch }
        public var path: String {
            APIRoute.path(.editMessage, or: .editGroupMessage, for: peer, ["messageId": messageId])
        }
        public var body: EditMessageRequest? {
            envelope.map(EditMessageRequest.init(envelope:)) ?? EditMessageRequest(text: text)
        }
        public var isIdempotent: Bool { true }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ messageId: String, with peer: String, text: String) {
            self.peer = peer
            self.messageId = messageId
            self.text = text
        }
    }

    /// `DELETE /v1/conversations/{username}/messages/{messageId}`: unsend (idempotent).
    public struct UnsendMessage: Endpoint {
        public typealias Response = EmptyResponse
        /// The other person of the conversation, or a group's key (`ConversationKey`).
        public var peer: String
        /// The message's server id.
        public var messageId: String
        public var method: HTTPMethod { .delete }
        public var path: String {
            APIRoute.path(.unsendMessage, or: .unsendGroupMessage, for: peer, ["messageId": messageId])
        }
        public var retryPolicy: RetryPolicy = .default
        /// Creates the call.
        public init(_ messageId: String, with peer: String) {
            self.peer = peer
            self.messageId = messageId
        }
    }

    /// `GET /v1/search/messages`: the user's messages holding every word, newest first.
    public struct SearchMessages: Endpoint {
        public typealias Response = Page<Message>
        /// The words to find (1–200 characters).
        public var q: String
        /// Only the conversation with this user (or a group's key: that group).
        public var peer: String?
        /// Which page.
        public var page: PageParameters
        public var path: String { APIRoute.searchMessages.path() }
        public var query: [(name: String, value: String)] {
            // A group's key asks for `?group=ID`.
            let conversation =
                peer.map { peer in [ConversationKey.groupId(of: peer).map { ("group", $0) } ?? ("peer", peer)] } ?? []
            return [("q", q)] + conversation + page.query
        }
        public var allowsConditionalCaching: Bool { false }
        /// Creates the call.
        public init(_ q: String, peer: String? = nil, page: PageParameters = .init()) {
            self.q = q
            self.peer = peer
            self.page = page
        }
    }
}
