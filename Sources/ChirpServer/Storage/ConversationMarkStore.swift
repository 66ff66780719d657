import ChirpModels

/// Pinned and muted conversations: marks a viewer sets on their own conversations.
///
/// A mark exists only on a conversation the viewer has (a `conversations` row, made by the
/// first message either way), so the marks of one user are bounded by their conversations;
/// a row that holds neither mark is removed. Account deletion removes the account's own marks
/// (`deleteAccount`); marks others set on a deleted account's conversation stay with it.
protocol ConversationMarkStore: Sendable {
    /// Applies `change` to the viewer's conversation with the user whose key is `peerKey`
    /// (a deleted account's `deleted-ID` included), when `decisions` allow it, and appends
    /// `conversation.updated` (data `decisions.encode(conversation as now)`) to the viewer's
    /// stream. Not created when the mark already was as asked.
    func markConversation(
        viewer: Int64, peerKey: String, change: ConversationMarkChange, at: Timestamp,
        decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome
    /// The viewer's pinned conversations, most recently pinned first, without those with a peer
    /// the viewer has blocked (at most as many as the pin rule allows, so not paged).
    func pinnedConversations(viewer: Int64) async throws -> [Conversation]
}

/// One change of a conversation's marks.
enum ConversationMarkChange: Sendable, Equatable {
    case pin, unpin, mute, unmute
}

/// The decisions a mark change asks for inside its transaction (implemented by
/// `ConversationMarkRules`).
protocol ConversationMarkDecisions: Sendable {
    /// Given how many other conversations the viewer has pinned: pin this one, or throw.
    func mayPin(pinnedElsewhere: Int) throws
    /// The conversation as its event's data.
    func encode(_ conversation: Conversation) throws -> String
}

/// What a mark change did.
enum ConversationMarkOutcome: Sendable {
    case noSuchPeer
    /// The peer exists but the viewer has no conversation with them.
    case noConversation
    case done(WriteOutcome<Void>)
}

extension ConversationMarkChange {
    /// Whether this change alters marks that are now `pinned` and `muted`.
    func alters(pinned: Bool, muted: Bool) -> Bool {
        switch self {
        case .pin: !pinned
        case .unpin: pinned
        case .mute: !muted
        case .unmute: muted
        }
    }
}
