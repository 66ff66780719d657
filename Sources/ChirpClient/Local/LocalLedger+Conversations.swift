import ChirpPersistence

extension LocalLedger {
    /// This user read `peer`'s messages: the conversation has nothing unread.
    func clearUnread(peer: String) async throws {
        try await write { [self] in
            guard var row = try await database.conversations.fetch(id: peer.lowercased()), row.unreadCount != 0 else {
                return ((), [])
            }
            row.unreadCount = 0
            try await database.conversations.save([row])
            return ((), [.conversations])
        }
    }

    /// A refreshed conversation list: the server's row replaces the stored one unless the
    /// stored one already shows a newer last message (an event applied after the server
    /// answered), which stays; a row with a pin or mute still queued keeps its marks, and one
    /// with an answer to its request still queued keeps what the answer made of it. With
    /// `scope` (a refresh of the requests), stored rows it selects that the reply leaves out
    /// are no longer requests: they go (an accepted one comes back with the list).
    func merge(conversations records: [ConversationSummary], replacing scope: RecordQuery? = nil) async throws {
        guard !records.isEmpty || scope != nil else { return }
        try await write { [self] in
            let stored = try await database.conversations.fetch(
                RecordQuery().filter("id", in: records.map { .text($0.id) }))
            let byId = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let queuedMarks = try await pendingMarkPeers()
            let answers = try await pendingAnswers()
            let changed = records.compactMap { record -> ConversationSummary? in
                if answers[record.id] == .decline { return nil }
                guard let current = byId[record.id] else { return record }
                if current.lastOrder > record.lastOrder { return nil }
                var record = record
                // Encrypted: the server's list has no text; the decrypted copy here does.
                record.encrypted = record.encrypted || current.encrypted
                if record.lastText == ConversationSummary.sealedText, current.lastOrder == record.lastOrder {
                    record.lastText = current.lastText
                }
                // A pin or mute still queued here is newer than the server's answer.
                if queuedMarks.contains(record.id) {
                    (record.pinOrder, record.muted) = (current.pinOrder, current.muted)
                }
                if answers[record.id] == .accept { record.request = false }
                return current == record ? nil : record
            }
            var removed: [String] = []
            if let scope {
                let listed = Set(records.map(\.id))
                removed = try await database.conversations.fetch(scope).map(\.id).filter {
                    !listed.contains($0) && answers[$0] == nil
                }
                if !removed.isEmpty { _ = try await database.conversations.delete(ids: removed) }
            }
            guard !changed.isEmpty || !removed.isEmpty else { return ((), []) }
            if !changed.isEmpty { try await database.conversations.save(try await withDecryptedLastText(changed)) }
            return ((), [.conversations])
        }
    }

    /// `rows` with the last text of an encrypted conversation taken from the decrypted copy of
    /// its last message when it is stored here (inside a write job).
    private func withDecryptedLastText(_ rows: [ConversationSummary]) async throws -> [ConversationSummary] {
        var rows = rows
        for index in rows.indices where rows[index].lastText == ConversationSummary.sealedText {
            let stored = try await database.messages.fetch(
                RecordQuery().filter("peer", .equal, .text(rows[index].id)).filter(
                    "sortKey", .equal, .integer(rows[index].lastOrder)
                ).limit(1))
            if let message = stored.first { rows[index].lastText = message.shownText }
        }
        return rows
    }

    /// Moves each message's conversation row forward to it (when it is the newest there) and
    /// counts the incoming ones among `unread` (message ids the server counts unread) that are
    /// newer than the row's last message. The row's count is the server's as of its last
    /// message (`merge(conversations:)`) plus what came after it, so a message counts once
    /// whichever of a list refresh, a page or its event brings it first. Runs inside a write
    /// job. Returns whether a row changed.
    func updateConversations(with messages: [LocalMessage], unread: Set<String>) async throws -> Bool {
        let acknowledged = messages.filter { $0.serverId != nil }.sorted { $0.sortKey < $1.sortKey }
        guard !acknowledged.isEmpty else { return false }
        let peers = Array(Set(acknowledged.map(\.peer)))
        let stored = try await database.conversations.fetch(RecordQuery().filter("id", in: peers.map { .text($0) }))
        var rows = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let before = rows
        let groups = try await storedGroups(Set(acknowledged.compactMap(\.group)))
        for message in acknowledged {
            let outgoing = message.isOutgoing(for: username)
            let peerName = message.group == nil ? (outgoing ? message.recipient : message.sender) : message.peer
            let shownName = message.group.flatMap { groups[$0]?.title } ?? peerName
            var row =
                rows[message.peer]
                ?? ConversationSummary(
                    id: message.peer, peerName: peerName, peerDisplayName: shownName, lastSender: message.sender,
                    lastText: message.shownText, lastOrder: 0, lastAt: message.createdAt, unreadCount: 0)
            if message.isEncrypted { row.encrypted = true }
            if message.sortKey > row.lastOrder, !outgoing, unread.contains(message.id) { row.unreadCount += 1 }
            // Replying to a request accepts it (the server does the same with the send).
            if outgoing { row.request = false }
            if message.sortKey >= row.lastOrder {
                row.lastSender = message.sender
                row.lastText = message.shownText
                row.lastOrder = message.sortKey
                row.lastAt = message.createdAt
            }
            rows[message.peer] = row
        }
        let changed = rows.values.filter { before[$0.id] != $0 }
        guard !changed.isEmpty else { return false }
        try await database.conversations.save(changed.sorted { $0.id < $1.id })
        return true
    }
}
