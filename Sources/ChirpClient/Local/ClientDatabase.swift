import ChirpModels
import ChirpPersistence
import Foundation

/// One user's local database (`client.sqlite` in their user context): messages with their
/// delivery states (the outbox is the pending ones), the conversation list, follow lists, the
/// timeline and the sync cursor. Several processes may open it at once (WAL).
///
/// Internal to ChirpClient: `LocalLedger` is its one writer, `UserSession` reads it, and
/// everything outside sees plain values through `UserSession`.
final class ClientDatabase: Sendable {
    /// The schema's history.
    static let migrations: [SQLiteStore.Migration] =
        [
            .init(
                name: "v1",
                sql: """
                    CREATE TABLE messages (
                        id TEXT PRIMARY KEY, clientMessageId TEXT NOT NULL, peer TEXT NOT NULL, sender TEXT NOT NULL,
                        recipient TEXT NOT NULL, text TEXT NOT NULL, serverId TEXT, sortKey INTEGER NOT NULL,
                        createdAt TEXT NOT NULL, state TEXT NOT NULL, failure TEXT);
                    CREATE INDEX messages_by_peer ON messages (peer, sortKey);
                    CREATE INDEX messages_by_state ON messages (state, sortKey);
                    CREATE TABLE conversations (
                        id TEXT PRIMARY KEY, peerName TEXT NOT NULL, peerDisplayName TEXT NOT NULL, lastSender TEXT NOT NULL,
                        lastText TEXT NOT NULL, lastOrder INTEGER NOT NULL, lastAt TEXT NOT NULL, unreadCount INTEGER NOT NULL);
                    CREATE TABLE follow_entries (
                        id TEXT PRIMARY KEY, owner TEXT NOT NULL, relation TEXT NOT NULL, username TEXT NOT NULL,
                        displayName TEXT NOT NULL, position INTEGER NOT NULL);
                    CREATE INDEX follow_entries_by_owner ON follow_entries (owner, relation, position);
                    CREATE TABLE timeline (
                        id TEXT PRIMARY KEY, "order" INTEGER NOT NULL, author TEXT NOT NULL, authorDisplayName TEXT NOT NULL,
                        text TEXT NOT NULL, createdAt TEXT NOT NULL);
                    CREATE TABLE sync_cursor (id TEXT PRIMARY KEY, lastSeq INTEGER NOT NULL);
                    """),
            // Attachments: a message's media and how it shows them; the files of pending ones.
            .init(
                name: "v2-media",
                sql: """
                    ALTER TABLE messages ADD COLUMN media TEXT NOT NULL DEFAULT '[]';
                    ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
                    CREATE TABLE pending_attachments (
                        id TEXT PRIMARY KEY, messageId TEXT NOT NULL, position INTEGER NOT NULL, path TEXT NOT NULL,
                        filename TEXT NOT NULL, contentType TEXT NOT NULL, size INTEGER NOT NULL, clientMediaId TEXT NOT NULL,
                        mediaId TEXT);
                    CREATE INDEX pending_attachments_by_message ON pending_attachments (messageId, position);
                    """),
        ] + ClientDatabase.actionMigrations + ClientDatabase.historyMigrations + [
            // Take-downs (issue 39): a tombstone the operators made shows as theirs.
            .init(
                name: "v4-removed-by-operators",
                sql: "ALTER TABLE messages ADD COLUMN removedByOperators INTEGER NOT NULL DEFAULT 0;"),
            // Pinned and muted conversations (API.md part 3).
            .init(
                name: "v5-conversation-marks",
                sql: """
                    ALTER TABLE conversations ADD COLUMN pinOrder INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE conversations ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;
                    """),
            // Message requests (API.md part 3): a conversation this user has not accepted yet.
            .init(
                name: "v6-message-requests",
                sql: "ALTER TABLE conversations ADD COLUMN request INTEGER NOT NULL DEFAULT 0;"),
        ] + ClientDatabase.groupMigrations + ClientDatabase.encryptionMigrations
        + ClientDatabase.conversationKeyMigrations

    /// The database file.
    let store: SQLiteStore
    let messages: any Repository<LocalMessage>
    let conversations: any Repository<ConversationSummary>
    let follows: any Repository<FollowEntry>
    let timeline: any Repository<TimelineEntry>
    let cursor: any Repository<SyncCursor>
    let attachments: any Repository<PendingAttachment>
    /// Reactions, edits and unsends waiting to be sent.
    let actions: any Repository<PendingAction>
    /// Unsends that came before their message.
    let earlyTombstones: any Repository<EarlyTombstone>
    /// Which stretches of each conversation are stored whole.
    let histories: any Repository<ConversationHistory>
    /// The groups this user is or was in.
    let groups: any Repository<LocalGroup>
    /// This installation's device (one row).
    let thisDevice: any Repository<ThisDeviceRecord>
    /// Users sealed to: their ids and devices.
    let knownUsers: any Repository<KnownUser>

    /// Opens (creating and migrating) the database at `url`. Commits survive a power cut:
    /// a message the user typed is in the outbox here before anything else happens to it.
    init(url: URL) throws {
        store = try SQLiteStore(path: url.path, migrations: Self.migrations, durability: .powerLoss)
        messages = try SQLiteRepository<LocalMessage>(store: store)
        conversations = try SQLiteRepository<ConversationSummary>(store: store)
        follows = try SQLiteRepository<FollowEntry>(store: store)
        timeline = try SQLiteRepository<TimelineEntry>(store: store)
        cursor = try SQLiteRepository<SyncCursor>(store: store)
        attachments = try SQLiteRepository<PendingAttachment>(store: store)
        actions = try SQLiteRepository<PendingAction>(store: store)
        earlyTombstones = try SQLiteRepository<EarlyTombstone>(store: store)
        histories = try SQLiteRepository<ConversationHistory>(store: store)
        groups = try SQLiteRepository<LocalGroup>(store: store)
        thisDevice = try SQLiteRepository<ThisDeviceRecord>(store: store)
        knownUsers = try SQLiteRepository<KnownUser>(store: store)
    }

    /// The seq of the last event applied (0 before the first sync).
    func lastSeq() async throws -> Int64 {
        try await cursor.fetch(id: "events")?.lastSeq ?? 0
    }

    /// Messages of a conversation, oldest first; the newest `limit` when given.
    func messages(with peer: String, limit: Int? = nil) async throws -> [LocalMessage] {
        let base = RecordQuery().filter("peer", .equal, .text(peer.lowercased()))
        guard let limit else { return try await messages.fetch(base.order(by: "sortKey")) }
        return try await messages.fetch(base.order(by: "sortKey", ascending: false).limit(limit)).reversed()
    }

    /// Messages waiting to be sent, in the order they were written.
    func pendingMessages() async throws -> [LocalMessage] {
        try await messages.fetch(
            RecordQuery().filter("state", .equal, .text(DeliveryState.pending.rawValue)).order(by: "sortKey"))
    }
}
