/// The input rules of message actions and search, shared by the server and clients.
extension Validation {
    /// Most distinct emoji one message carries.
    public static let maxDistinctReactions = 20
    /// How long after sending the sender may edit a message.
    public static let editWindow: Duration = .seconds(15 * 60)
    /// Longest search query, in characters (Unicode code points, after trimming).
    public static let searchQueryLength = 200
    /// Longest reaction in UTF-8 bytes (the longest emoji sequences take about 35).
    static let reactionBytes = 64

    /// Checks a reaction: exactly one grapheme cluster, not a space or a control character.
    public static func reaction(_ value: String) throws(ValidationError) -> String {
        guard value.count == 1, value.utf8.count <= reactionBytes, let character = value.first,
            !character.isWhitespace, !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control })
        else {
            throw ValidationError(
                code: APIErrorCode.invalidReaction, field: "emoji", message: "A reaction is one emoji (one character).")
        }
        return value
    }

    /// Trims a search query and checks it: 1–200 characters.
    public static func searchQuery(_ value: String) throws(ValidationError) -> String {
        let trimmed = value.trimmingSurroundingWhitespace()
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= searchQueryLength else {
            throw ValidationError(
                code: APIErrorCode.invalidQuery, field: "q",
                message: "A search is 1 to \(searchQueryLength) characters.")
        }
        return trimmed
    }
}
