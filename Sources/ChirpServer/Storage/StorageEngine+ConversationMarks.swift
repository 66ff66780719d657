import ChirpModels

/// The direct conversations list, pins and mutes, written once for both engines.
extension StorageEngine {
    func conversations(viewer: Int64, before cursor: Int64, limit: Int, requests: Bool) async throws -> [Listed<
        Conversation
    >] {
        try await reading { scope in
            // One query: the conversation, its peer (with viewer fields), its last message and marks.
            try await scope.conversations(
                owner: viewer,
                where: """
                    c.last_message_id < $2 AND \(StorageSQL.listed(requests: requests)) AND \(BlockSQL.notBlocked("c.peer_id", by: "$1"))
                    ORDER BY c.last_message_id DESC LIMIT $3
                    """,
                cursor, limit)
        }
    }

    func markConversation(
        viewer: Int64, peerKey: String, change: ConversationMarkChange, at: Timestamp,
        decisions: some ConversationMarkDecisions
    ) async throws -> ConversationMarkOutcome {
        try await writing { scope in
            guard let peer = try await scope.userId(key: peerKey) else { return .noSuchPeer }
            // The viewer's row, locked as every writer of their stream locks it: their mark
            // changes queue up, so the pin count and the next pin order are read once each.
            try await scope.lockUsers([viewer])
            guard let marks = try await scope.queryRow(StorageSQL.currentMarks, viewer, peer) else {
                return .noConversation
            }
            guard change.alters(pinned: try marks("pinned"), muted: try marks("muted")) else {
                return .done(WriteOutcome(value: (), created: false))
            }
            if change == .pin { try decisions.mayPin(pinnedElsewhere: try marks("pins")) }
            try await scope.run(StorageSQL.markStatements[change]!, viewer, peer)
            try await scope.run(StorageSQL.cleanUpMarks, viewer, peer)
            guard
                let conversation = try await scope.conversations(owner: viewer, where: "c.peer_id = $2", peer).first?
                    .item
            else { throw StorageError.inconsistent("conversation \(viewer)/\(peer) is missing") }
            let appended = try await scope.appendEvent(
                userId: viewer, type: EventType.conversationUpdated, json: decisions.encode(conversation), at: at)
            return .done(WriteOutcome(value: (), created: true, appended: [appended]))
        }
    }

    func pinnedConversations(viewer: Int64) async throws -> [Conversation] {
        try await reading { scope in
            try await scope.conversations(
                owner: viewer,
                where: """
                    k.pin_order IS NOT NULL AND NOT \(StorageSQL.pendingRequest) AND \(BlockSQL.notBlocked("c.peer_id", by: "$1"))
                    ORDER BY k.pin_order DESC
                    """
            ).map(\.item)
        }
    }
}
