import ChirpModels
import ChirpPersistence

extension ClientDatabase {
    /// One conversation identity (issue 53): a group's key was `group:ID` in the kit and `g:ID`
    /// in the web client; every stored key becomes `ConversationKey`'s `g:ID`. Usernames hold no
    /// `:`, so only group keys start with `group:`.
    static let conversationKeyMigrations: [SQLiteStore.Migration] = [
        .init(
            name: "v9-one-conversation-key",
            sql: """
                UPDATE messages SET peer = 'g:' || substr(peer, 7) WHERE peer LIKE 'group:%';
                UPDATE conversations SET id = 'g:' || substr(id, 7) WHERE id LIKE 'group:%';
                UPDATE conversations SET peerName = 'g:' || substr(peerName, 7) WHERE peerName LIKE 'group:%';
                UPDATE pending_actions SET peer = 'g:' || substr(peer, 7) WHERE peer LIKE 'group:%';
                UPDATE histories SET id = 'g:' || substr(id, 7) WHERE id LIKE 'group:%';
                """)
    ]
}
