/// The one tombstone, for direct and group messages alike: what an unsent, taken-down or
/// deleted account's message keeps (its id, sender, time and place; `deleted`, and
/// `removed_by_operators` for a take-down) and what it loses (text, envelope, reactions,
/// media). Reads show a tombstone from these columns (`MessageColumns`); the engine's search
/// index loses it first (`StorageScope.unindexMessages`).
enum MessageTombstoneSQL {
    /// Makes the messages matching `messages` (a condition on `messages`) tombstones;
    /// `byOperators` marks them taken down.
    static func tombstone(where messages: String, byOperators: Bool = false) -> String {
        """
        UPDATE messages SET deleted = TRUE, text = '', envelope = NULL, reactions = NULL, media_json = '[]'\(
            byOperators ? ", removed_by_operators = TRUE" : "") WHERE \(messages)
        """
    }
}
