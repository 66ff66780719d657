import ChirpModels
import GRDB

extension SQLiteStorage {
    func markConversation(
        viewer: Int64, peerKey: String, change: ConversationMarkChange, at: Timestamp, decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome {
        try await write { db in
            guard let peer = try Self.userId(db, key: peerKey) else { return .noSuchPeer }
            let pair: StatementArguments = [viewer, peer]
            guard let marks = try Row.fetchOne(db.cachedStatement(sql: StorageSQL.currentMarks), arguments: pair) else {
                return .noConversation
            }
            let pinned: Bool = marks[0], muted: Bool = marks[1]
            guard change.alters(pinned: pinned, muted: muted) else { return .done(WriteOutcome(value: (), created: false)) }
            if change == .pin { try decisions.mayPin(pinnedElsewhere: marks[2]) }
            try db.cachedStatement(sql: StorageSQL.markStatements[change]!).execute(arguments: pair)
            try db.cachedStatement(sql: StorageSQL.cleanUpMarks).execute(arguments: pair)
            guard let conversation = try Self.fetchConversations(db, viewer: viewer, where: "c.peer_id = :peer", ["peer": peer]).first
            else { throw StorageError.inconsistent("conversation \(viewer)/\(peer) is missing") }
            let appended = try Self.appendEvent(
                db, userId: viewer, type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            return .done(WriteOutcome(value: (), created: true, appended: [appended]))
        }
    }

    func pinnedConversations(viewer: Int64) async throws -> [Conversation] {
        try await read { db in
            try Self.fetchConversations(
                db, viewer: viewer,
                where: "k.pin_order IS NOT NULL AND NOT \(StorageSQL.pendingRequest) AND \(Self.peerNotBlocked) ORDER BY k.pin_order DESC",
                [:])
        }
    }

    /// Leaves out conversations with a peer the viewer (`:viewer`) has blocked.
    static let peerNotBlocked = BlockSQL.notBlocked("c.peer_id", by: ":viewer")

    /// The viewer's conversations matching `condition` (SQL after `WHERE c.owner_id = :viewer
    /// AND`, over `c`, `k`, `u` and `m`), each with its list cursor.
    static func fetchListedConversations(
        _ db: Database, viewer: Int64, where condition: String, _ arguments: [String: any DatabaseValueConvertible]
    ) throws -> [Listed<Conversation>] {
        let columns = StorageSQL.conversationColumns(peerColumns: userColumns("u"))
        var named = arguments
        named["viewer"] = viewer
        return try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) WHERE c.owner_id = :viewer AND \(condition)"),
            arguments: StatementArguments(named)
        ).map { row in
            let peerAt = StorageSQL.conversationPeerIndex
            return Listed(cursor: row[0], item: Conversation(
                peer: user(from: row, at: peerAt), lastMessage: message(from: row, at: peerAt + userColumnCount),
                unreadCount: row[1], request: row[4], pinned: row[2], muted: row[3]))
        }
    }

    /// `fetchListedConversations` without the cursors.
    static func fetchConversations(
        _ db: Database, viewer: Int64, where condition: String, _ arguments: [String: any DatabaseValueConvertible]
    ) throws -> [Conversation] {
        try fetchListedConversations(db, viewer: viewer, where: condition, arguments).map(\.item)
    }
}
