import ChirpModels

/// Message requests (API.md part 3): each user's setting, and the answers to a request.
///
/// A request is a `message_requests` row of (recipient, sender), written by the send that
/// opens it (`RequestChange.open`) and accepted by the recipient's reply (`.accept`), both in
/// the send's transaction, or by `answerRequest`. One row per pair of users who exist; account
/// deletion removes the account's rows both ways, with the recipients' conversations of the
/// requests it had pending.
protocol MessageRequestStore: Sendable {
    /// Whether the user takes message requests from everyone; nil: no such user.
    func takesMessageRequests(userId: Int64) async throws -> Bool?
    /// Sets whether the user takes message requests from everyone.
    func setTakesMessageRequests(userId: Int64, _ takes: Bool) async throws
    /// Accepts or declines the viewer's pending request from the user whose key is `peerKey`
    /// and appends `conversation.updated` (data `encode(conversation)`, the conversation as
    /// the viewer sees it after the answer; after a decline, as it was, `declined`) to the
    /// viewer's stream. A decline removes the request and the viewer's conversation row with
    /// its marks, so a later message opens a new request.
    func answerRequest(
        viewer: Int64, peerKey: String, _ answer: RequestAnswer, at: Timestamp,
        encode: @escaping @Sendable (Conversation) throws -> String
    ) async throws -> RequestAnswerOutcome
}

/// The recipient's answer to a message request.
enum RequestAnswer: Sendable, Equatable {
    case accept, decline
}

/// What answering a request did.
enum RequestAnswerOutcome: Sendable {
    case noSuchPeer
    /// The peer exists but has no pending request to the viewer.
    case noRequest
    case answered([AppendedEvent])
}

/// A recipient's request from a sender, as stored.
enum RequestState: Sendable, Equatable {
    case none, pending, accepted

    /// From the `accepted` column of the pair's row (nil: no row).
    init(accepted: Bool?) {
        self = accepted.map { $0 ? .accepted : .pending } ?? .none
    }

    /// As `chirp_send_batch` compares it: 0 none, 1 pending, 2 accepted.
    var code: Int32 {
        switch self {
        case .none: 0
        case .pending: 1
        case .accepted: 2
        }
    }
}

/// What a send does to the pair's request, decided with it (`SendDecision.insert`).
enum RequestChange: Sendable, Equatable {
    /// Nothing: an ordinary message, or one more message of a pending request.
    case unchanged
    /// The message opens a request: the recipient's request from the sender, pending.
    case open
    /// The message answers the sender's pending request from the recipient: it is accepted.
    case accept

    /// The `message_requests` row this change writes for a message from `sender` to
    /// `recipient`: (recipient, sender, accepted); nil for none.
    func row(sender: Int64, recipient: Int64) -> (recipient: Int64, sender: Int64, accepted: Bool)? {
        switch self {
        case .unchanged: nil
        case .open: (recipient, sender, false)
        case .accept: (sender, recipient, true)
        }
    }
}
