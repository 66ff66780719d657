/// How every client names a conversation (the kit, the CLI, the terminal app and the web
/// client alike): a direct one by the other person's username (lowercased where stored), a
/// group by `g:` and its id, as an envelope's `ConversationID` spells a group. Usernames never
/// hold `:`, so the two cannot meet. A key is the client's: the API names a conversation by its
/// path (`/v1/conversations/{username}`, `/v1/groups/{id}`).
public enum ConversationKey {
    /// What a group's key starts with.
    public static let groupPrefix = "g:"
    /// The prefix the kit wrote before the keys were one (client database before v9); typed
    /// keys with it are still understood.
    public static let formerGroupPrefix = "group:"

    /// The key of group `id`.
    public static func group(_ id: String) -> String { groupPrefix + id }

    /// The group id a key names; nil for a direct conversation.
    public static func groupId(of key: String) -> String? {
        key.hasPrefix(groupPrefix) ? String(key.dropFirst(groupPrefix.count)) : nil
    }

    /// Whether `key` names a group.
    public static func isGroup(_ key: String) -> Bool { key.hasPrefix(groupPrefix) }

    /// The key a user typed: `g:ID`, or `group:ID` as earlier versions printed it, or a username.
    public static func typed(_ text: String) -> String {
        text.hasPrefix(formerGroupPrefix) ? group(String(text.dropFirst(formerGroupPrefix.count))) : text
    }
}
