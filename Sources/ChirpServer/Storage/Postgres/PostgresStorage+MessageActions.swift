import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func replyTarget(_ id: Int64, sender: Int64, recipientKey: String) async throws -> ReplyTargetCheck {
        try await read { scope in
            guard let recipient = try await scope.userId(key: recipientKey) else { return .noSuchRecipient }
            let found =
                try await scope.execute(
                    """
                    SELECT 1 FROM messages WHERE id = \(id) AND user_lo = \(min(sender, recipient)) AND user_hi = \(max(sender, recipient))
                    """) > 0
            return found ? .valid : .notInConversation
        }
    }

    func replyTarget(_ id: Int64, viewer: Int64, groupId: Int64) async throws -> ReplyTargetCheck {
        try await read { scope in
            try await scope.execute(
                PostgresQuery(unsafeSQL: GroupSQL.visibleMessageExists, binds: Self.binds(groupId, viewer, id))) > 0
                ? .valid : .notInConversation
        }
    }

    /// Both people's rows are locked first, in id order, as sends and read markers lock them,
    /// then the message row: concurrent changes to one message queue instead of losing one.
    func changeMessage(
        _ id: Int64, viewer: Int64, peerKey: String, at: Timestamp, encoding: any MessageChangeEncoding,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome {
        try await write { scope in
            guard let peer = try await scope.userId(key: peerKey) else { return .noSuchPeer }
            try await scope.lockUsers([viewer, peer])
            guard
                let row = try await scope.row(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT m.sender_id, m.recipient_id, \(BlockSQL.between("$2", "$3"))
                            FROM messages m WHERE m.id = $1 AND m.user_lo = $4 AND m.user_hi = $5
                            FOR UPDATE
                            """, binds: Self.binds(id, viewer, peer, min(viewer, peer), max(viewer, peer)))),
                let message = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(id)).first
            else { return .noSuchMessage }
            let sender: Int64 = try row.value(0)
            let recipient: Int64 = try row.value(1)
            let facts = MessageFacts(
                message: message, viewerIsSender: sender == viewer,
                viewerBlockedPeer: try row.value(2), peerBlockedViewer: try row.value(3))
            switch try change(facts) {
            case .none:
                return .unchanged(message)
            case .update(let updated):
                try await scope.execute(
                    """
                    UPDATE messages SET text = \(updated.text), edited_at = \(updated.editedAt?.millisecondsSince1970),
                        reactions = \(encoding.reactionsColumn(updated.reactions)),
                        envelope = \(try EnvelopeColumn.encode(updated.envelope)),
                        search_words = string_to_array(\(SearchTerms.indexed(updated.text)), ' ')
                    WHERE id = \(id)
                    """)
                let stored = try await Self.fetchMessages(scope, where: "m.id = $1", Self.binds(id)).first ?? updated
                try await scope.appendEvents(
                    userIds: [sender, recipient], type: EventType.messageUpdated, json: encoding.updated(stored),
                    at: at,
                    stored: .message(id))
                return .changed(stored, scope.appended)
            case .unsend:
                let tombstone = message.tombstone()
                try await Self.storeTombstone(
                    scope, id: id, sender: sender, recipient: recipient, byOperators: false,
                    notice: try encoding.deleted(tombstone), at: at)
                return .changed(tombstone, scope.appended)
            }
        }
    }

    /// Makes message `id` a tombstone for both people (`byOperators`: marked as a take-down):
    /// the row loses its text, reactions and search words, and both streams get
    /// `message.deleted` with `notice` (their events are all read from the row).
    static func storeTombstone(
        _ scope: PostgresScope, id: Int64, sender: Int64, recipient: Int64, byOperators: Bool, notice: String,
        at: Timestamp
    ) async throws {
        try await scope.execute(
            """
            UPDATE messages SET text = '', envelope = NULL, deleted = TRUE, reactions = NULL, search_words = '{}',
                removed_by_operators = removed_by_operators OR \(byOperators)
            WHERE id = \(id)
            """)
        try await scope.appendEvents(
            userIds: [sender, recipient], type: EventType.messageDeleted, json: notice, at: at, stored: .message(id))
    }

    func searchMessages(viewer: Int64, peerKey: String?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { scope in
            var pair = ""
            if let peerKey {
                guard let peer = try await scope.userId(key: peerKey) else { return nil }
                pair = " AND m.user_lo = \(min(viewer, peer)) AND m.user_hi = \(max(viewer, peer))"
            }
            guard !words.isEmpty else { return [] }
            return try await Self.fetchMessages(
                scope,
                where: """
                    m.search_words @> $1::text[] AND (m.sender_id = $2 OR m.recipient_id = $2) AND NOT m.deleted
                        AND m.id < $3\(pair) ORDER BY m.id DESC LIMIT $4
                    """,
                Self.binds(words, viewer, before, limit))
        }
    }
}
