/// Pinned and muted conversations (API.md part 3, direct conversations): each is a mark the
/// viewer sets on their own conversation with `username`, idempotently.
extension APIRoute {
    public static let pinConversation = APIRoute(.put, "/v1/conversations/{username}/pin")
    public static let unpinConversation = APIRoute(.delete, "/v1/conversations/{username}/pin")
    public static let muteConversation = APIRoute(.put, "/v1/conversations/{username}/mute")
    public static let unmuteConversation = APIRoute(.delete, "/v1/conversations/{username}/mute")

    /// The conversation marks' routes, in `all`.
    public static let conversationMarks: [APIRoute] = [
        pinConversation, unpinConversation, muteConversation, unmuteConversation,
    ]
}
