import ChirpModels

/// How the client kit names a conversation: a direct one by the peer's username (lowercased
/// where stored), a group by `group:ID`. Every per-conversation API of `UserSession` (send,
/// messages, actions, read, typing, pins, mutes, request answers) takes either, so groups go
/// through the same outbox, ledger and history as direct messages. Usernames never hold `:`.
public enum ConversationKey {
    /// What a group's key starts with.
    public static let groupPrefix = "group:"

    /// The key of group `id`.
    public static func group(_ id: String) -> String { groupPrefix + id }

    /// The group id a key names; nil for a direct conversation.
    public static func groupId(of key: String) -> String? {
        key.hasPrefix(groupPrefix) ? String(key.dropFirst(groupPrefix.count)) : nil
    }

    /// Whether `key` names a group.
    public static func isGroup(_ key: String) -> Bool { key.hasPrefix(groupPrefix) }
}

extension APIRoute {
    /// The path of `direct` for a peer, or of `group` (its `{id}`) for a group key; `parameters`
    /// fill the rest of either.
    static func path(_ direct: APIRoute, or group: APIRoute, for key: String, _ parameters: [String: String] = [:])
        -> String
    {
        if let id = ConversationKey.groupId(of: key) { return group.path(parameters.merging(["id": id]) { $1 }) }
        return direct.path(parameters.merging(["username": key]) { $1 })
    }
}
