import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func markConversation(
        viewer: Int64, peerKey: String, change: ConversationMarkChange, at: Timestamp, decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome {
        try await write { scope in
            guard let peer = try await Self.userId(scope, key: peerKey) else { return .noSuchPeer }
            // The viewer's row, locked as every writer of their stream locks it: their mark
            // changes queue up, so the pin count and the next pin order are read once each.
            try await scope.lockUsers([viewer])
            let pair = Self.binds(viewer, peer)
            guard let marks = try await scope.row(PostgresQuery(unsafeSQL: StorageSQL.currentMarks, binds: pair)) else {
                return .noConversation
            }
            guard change.alters(pinned: try marks.value(0), muted: try marks.value(1)) else {
                return .done(WriteOutcome(value: (), created: false))
            }
            if change == .pin { try decisions.mayPin(pinnedElsewhere: Int(try marks.value(2, as: Int64.self))) }
            try await scope.execute(PostgresQuery(unsafeSQL: StorageSQL.markStatements[change]!, binds: pair))
            try await scope.execute(PostgresQuery(unsafeSQL: StorageSQL.cleanUpMarks, binds: pair))
            guard let conversation = try await Self.fetchConversations(scope, viewer: viewer, where: "c.peer_id = $2", pair).first
            else { throw StorageError.inconsistent("conversation \(viewer)/\(peer) is missing") }
            try await scope.appendEvent(userId: viewer, type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            return .done(WriteOutcome(value: (), created: true, appended: scope.appended))
        }
    }

    func pinnedConversations(viewer: Int64) async throws -> [Conversation] {
        try await read { scope in
            try await Self.fetchConversations(
                scope, viewer: viewer,
                where: "k.pin_order IS NOT NULL AND NOT \(StorageSQL.pendingRequest) AND \(Self.peerNotBlocked) ORDER BY k.pin_order DESC",
                Self.binds(viewer))
        }
    }

    /// Leaves out conversations with a peer the viewer (`$1`) has blocked.
    static let peerNotBlocked = BlockSQL.notBlocked("c.peer_id", by: "$1")

    /// The viewer's conversations matching `condition` (SQL after `WHERE c.owner_id = $1 AND`,
    /// over `c`, `k`, `u` and `m`; `binds` start with the viewer), each with its list cursor.
    static func fetchListedConversations(
        _ scope: PostgresScope, viewer: Int64, where condition: String, _ binds: PostgresBindings
    ) async throws -> [Listed<Conversation>] {
        let columns = StorageSQL.conversationColumns(peerColumns: userColumns("u", viewerSQL: "$1"))
        return try await scope.rows(PostgresQuery(unsafeSQL: "SELECT \(columns) WHERE c.owner_id = $1 AND \(condition)", binds: binds))
            .map { row in
                let peerAt = StorageSQL.conversationPeerIndex
                return Listed(cursor: try row.value(0), item: Conversation(
                    peer: try user(from: row, at: peerAt), lastMessage: try message(from: row, at: peerAt + userColumnCount),
                    unreadCount: Int(try row.value(1, as: Int64.self)), request: try row.value(4), pinned: try row.value(2),
                    muted: try row.value(3)))
            }
    }

    /// `fetchListedConversations` without the cursors.
    static func fetchConversations(
        _ scope: PostgresScope, viewer: Int64, where condition: String, _ binds: PostgresBindings
    ) async throws -> [Conversation] {
        try await fetchListedConversations(scope, viewer: viewer, where: condition, binds).map(\.item)
    }
}
