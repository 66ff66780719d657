/// The error codes of message actions and search (API.md part 2, "Message actions").
extension APIErrorCode {
    /// `replyTo` is not a message of the same conversation (422).
    public static let invalidReply = "invalid_reply"
    /// A reaction that is not one grapheme cluster (422).
    public static let invalidReaction = "invalid_reaction"
    /// A new emoji on a message that already has the most distinct emoji allowed (422).
    public static let tooManyReactions = "too_many_reactions"
    /// Editing or unsending someone else's message (403).
    public static let notSender = "not_sender"
    /// Editing after the edit window (403).
    public static let editWindowClosed = "edit_window_closed"
    /// Editing or reacting to an unsent message (409).
    public static let messageDeleted = "message_deleted"
    /// A search query that is empty or too long (422).
    public static let invalidQuery = "invalid_query"
}
