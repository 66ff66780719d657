/// The error codes of pinned and muted conversations (API.md part 3).
extension APIErrorCode {
    /// Pinning an 11th conversation (409): at most `Validation.maxPinnedConversations`.
    public static let tooManyPinned = "too_many_pinned"
    /// Pinning or muting a conversation the viewer does not have: no message either way yet,
    /// or a deleted account they never talked with (404).
    public static let conversationNotFound = "conversation_not_found"
}
