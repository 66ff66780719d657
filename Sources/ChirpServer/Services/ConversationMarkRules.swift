import ChirpModels

/// The rules of pinned and muted conversations that storage asks inside a mark change's
/// transaction: at most `Validation.maxPinnedConversations` pinned (409 `too_many_pinned`),
/// and the conversation encoded as `conversation.updated` data in the API's JSON.
///
/// Pins with a peer the viewer has blocked count toward the limit though the list leaves them
/// out (unblocking shows them again, still pinned); unpinning them works as for any other.
struct ConversationMarkRules: ConversationMarkDecisions {
    var maxPinned = Validation.maxPinnedConversations

    func mayPin(pinnedElsewhere: Int) throws {
        guard pinnedElsewhere < maxPinned else {
            throw APIError(
                .conflict, APIErrorCode.tooManyPinned,
                "You can pin at most \(maxPinned) conversations: unpin one first.")
        }
    }

    func encode(_ conversation: Conversation) throws -> String {
        try APIJSON.encode(conversation)
    }
}
