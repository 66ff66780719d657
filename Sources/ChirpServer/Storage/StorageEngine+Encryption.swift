import ChirpModels

/// `EncryptionStore`, written once for both engines.
extension StorageEngine {
    func encryptDirect(viewer: Int64, peerKey: String, at: Timestamp, decisions: some EncryptionDecisions)
        async throws -> WriteOutcome<Bool>?
    {
        try await writing { scope in
            guard let facts = try await scope.recipientFacts(key: peerKey, sender: viewer) else { return nil }
            try await scope.lockUsers([viewer, facts.id])
            let withoutDevices = try await scope.query(
                """
                SELECT u.username FROM users u WHERE u.id IN ($1, $2)
                    AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id) ORDER BY u.username_key
                """, viewer, facts.id
            ).map { row -> String in try row("username") }
            try decisions.mayEncrypt(facts, withoutDevices: withoutDevices)
            let inserted = try await scope.run(
                "INSERT INTO encrypted_direct (user_lo, user_hi, enabled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                min(viewer, facts.id), max(viewer, facts.id), at)
            guard inserted > 0 else { return WriteOutcome(value: false, created: false) }
            var appended: [AppendedEvent] = []
            for (owner, peer) in [(viewer, facts.id), (facts.id, viewer)] {
                // Before the first message there is no conversation yet: both are still told, with
                // a conversation that has no last message, so that neither sends the first one in
                // the clear.
                var conversation = try await scope.conversations(owner: owner, where: "c.peer_id = $2", peer).first?
                    .item
                if conversation == nil, let user = try await scope.user(id: peer, viewer: owner) {
                    conversation = Conversation(peer: user, lastMessage: nil, unreadCount: 0, encrypted: true)
                }
                guard let conversation else { continue }
                appended.append(
                    try await scope.appendEvent(
                        userId: owner, type: EventType.conversationUpdated, json: try decisions.encode(conversation),
                        at: at))
            }
            return WriteOutcome(value: true, created: true, appended: appended)
        }
    }
}
