/// The server's durable state, one protocol per feature, implemented by each backend
/// (`SQLiteStorage`, `PostgresStorage`).
///
/// Storage runs SQL and returns plain values: it knows no HTTP, no API error and no API JSON.
/// Every mutating call is one transaction that also appends the events it causes to the
/// affected users' streams and returns them, so the service above can wake their listeners
/// after the commit. A rule that needs the transaction's consistent view (may this user
/// message that one, is this a retry of a stored send) is decided by the service through the
/// decisions it hands in (`SendDecisions`, the closures of the tweet writes): storage gathers
/// the facts, asks, and writes what it was told to.
protocol ChirpStorage: AccountStore, SocialStore, MessageStore, TweetStore, EventStore, ClientLogStore, SafetyStore,
    MessageActionStore, MediaStore, ModerationStore, ConversationMarkStore, MessageRequestStore, GroupStore, PushStore,
    DeviceStore, EncryptionStore
{}
