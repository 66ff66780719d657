import ChirpModels
import ChirpPersistence

extension LocalLedger {
    /// A group as the server now has it (a create's or change's reply, `group.created`,
    /// `group.updated`): stored, its conversation row made (or renamed) so it shows in the list
    /// before its first message, among the requests when `group.created` says it is one for
    /// this user. This user is a member again if they had left.
    func store(group: Group) async throws {
        try await write { [self] in
            let incoming = LocalGroup(group)
            var changes: [LocalChange] = []
            if try await database.groups.fetch(id: group.id) != incoming {
                try await database.groups.save([incoming])
                changes.append(.messages(peer: incoming.key))
            }
            if var row = try await database.conversations.fetch(id: incoming.key) {
                if row.peerDisplayName != incoming.title || row.encrypted != incoming.encrypted {
                    row.peerDisplayName = incoming.title
                    row.encrypted = row.encrypted || incoming.encrypted
                    try await database.conversations.save([row])
                    changes.append(.conversations)
                }
            } else if try await pendingAnswers()[incoming.key] != .decline {
                // The server places a group with no message at its join mark, taken from the
                // message ids' sequence when this user joined: above every message stored then.
                var row = ConversationSummary(group: incoming)
                row.lastOrder = try await newestAcknowledgedOrder() + 1
                row.request = group.request == true
                try await database.conversations.save([row])
                changes.append(.conversations)
            }
            return ((), changes)
        }
    }

    /// `group.removed`: this user was removed or left. What they saw stays readable; the group
    /// is marked left, and nothing more can be sent to it.
    func leave(group id: String) async throws {
        try await write { [self] in
            guard var group = try await database.groups.fetch(id: id), !group.left else { return ((), []) }
            group.left = true
            try await database.groups.save([group])
            return ((), [.messages(peer: group.key), .conversations])
        }
    }

    /// The newest server message id any conversation row shows (0 when none does), leaving
    /// out rows whose last message is still on its way.
    private func newestAcknowledgedOrder() async throws -> Int64 {
        let rows = try await database.conversations.fetch(
            RecordQuery().filter("lastOrder", .less, .integer(LocalMessage.pendingBase)).order(
                by: "lastOrder", ascending: false
            ).limit(1))
        return rows.first?.lastOrder ?? 0
    }

    /// The stored groups among `ids`, by id (inside a write job or not).
    func storedGroups(_ ids: Set<String>) async throws -> [String: LocalGroup] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.groups.fetch(RecordQuery().filter("id", in: ids.sorted().map { .text($0) }))
        return Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `message.read` in a group: `reader` read its messages up to server id `upTo`. Each
    /// message by someone else that the reader's marker newly covers counts them once
    /// (`LocalMessage.readers`); the count never goes below the server's.
    func markGroupRead(by reader: String, group: String, upTo: String) async throws {
        guard let limit = Int64(upTo) else { return }
        let key = ConversationKey.group(group)
        let name = reader.lowercased()
        try await write { [self] in
            let rows = try await database.messages.fetch(
                RecordQuery().filter("peer", .equal, .text(key)).filter("sortKey", .lessOrEqual, .integer(limit))
                    .order(by: "sortKey", ascending: false).limit(500))
            var changed: [LocalMessage] = []
            for row in rows where row.serverId != nil && row.sender.lowercased() != name {
                // Older ones were covered by an earlier marker of theirs.
                if row.readers.contains(name) { break }
                var row = row
                row.readers.append(name)
                row.readCount = max(row.readCount, row.readers.count)
                changed.append(row)
            }
            guard !changed.isEmpty else { return ((), []) }
            try await database.messages.save(changed)
            return ((), [.messages(peer: key)])
        }
    }
}
