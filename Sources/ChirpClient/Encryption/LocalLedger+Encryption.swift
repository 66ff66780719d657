import ChirpModels
import ChirpPersistence
import Foundation

extension LocalLedger {
    /// What this device makes of `message`'s envelope (nil for a message in the clear). Runs
    /// before a write job: it may ask the server for the sender's devices.
    func opening(_ message: Message) async -> OpenedEnvelope? {
        guard message.envelope != nil else { return nil }
        return await crypto?.open(message)
    }

    /// `given` (what the sender's own device sealed), else what this device makes of
    /// `message`'s envelope.
    func opening(_ message: Message, given: OpenedEnvelope?) async -> OpenedEnvelope? {
        if let given { return given }
        return await opening(message)
    }

    /// `messages` as rows for `viewer`, each envelope opened.
    func rows(_ messages: [Message]) async -> [LocalMessage] {
        var rows: [LocalMessage] = []
        for message in messages {
            rows.append(LocalMessage(message, viewer: username, opened: await opening(message)))
        }
        return rows
    }

    /// Messages read from the server, each envelope opened, merged as `merge(page:)` does.
    func merge(messages: [Message]) async throws {
        try await merge(page: await rows(messages))
    }

    /// The conversation `key` (a peer or a group's key) is encrypted: from a switch made here,
    /// its `conversation.updated` / `group.updated`, or a plaintext send refused with
    /// `encryption_required`. Once on, never off.
    func markEncrypted(_ key: String) async throws {
        try await write { [self] in
            var changes: [LocalChange] = []
            if var row = try await database.conversations.fetch(id: key.lowercased()) {
                if !row.encrypted {
                    row.encrypted = true
                    try await database.conversations.save([row])
                    changes.append(.conversations)
                }
            } else {
                // No message either way yet: the row remembers it, so the first message (and its
                // attachments) are sealed before anything leaves this device.
                try await database.conversations.save([
                    ConversationSummary(
                        id: key.lowercased(), peerName: key, peerDisplayName: key, lastSender: "", lastText: "",
                        lastOrder: 0, lastAt: "", unreadCount: 0, encrypted: true)
                ])
                changes.append(.conversations)
            }
            if let id = ConversationKey.groupId(of: key), var group = try await database.groups.fetch(id: id),
                !group.encrypted
            {
                group.encrypted = true
                try await database.groups.save([group])
                changes.append(.messages(peer: key))
            }
            return ((), changes)
        }
    }

    /// Whether the conversation `key` is known here to be encrypted.
    func isEncrypted(_ key: String) async throws -> Bool {
        if let id = ConversationKey.groupId(of: key), try await database.groups.fetch(id: id)?.encrypted == true {
            return true
        }
        return try await database.conversations.fetch(id: key.lowercased())?.encrypted == true
    }

    /// `user` added, rotated or removed a device (`device.changed`): their list is asked again
    /// before the next seal (a send sealed to the old list is answered `devices_changed` and
    /// sealed again in any case), and screens that show a notice in their conversations hear it.
    func devicesChanged(of user: String) async {
        await crypto?.directory.forget(user)
        changes.publish([.devices(user: user.lowercased())])
    }

    /// The stored messages of encrypted conversations (with `peer` only, when given) whose
    /// decrypted text holds every word of `query` (case and accents ignored), newest first.
    /// The server cannot search them: it holds only their envelopes.
    func searchDecrypted(_ query: String, peer: String?, limit: Int) async throws -> [LocalMessage] {
        let words = query.split(whereSeparator: \.isWhitespace).map {
            $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        guard !words.isEmpty else { return [] }
        var filter = RecordQuery().filter("verification", .equal, .text(MessageVerification.opened.rawValue))
        if let peer { filter = filter.filter("peer", .equal, .text(peer.lowercased())) }
        let rows = try await database.messages.fetch(filter.order(by: "sortKey", ascending: false))
        return Array(
            rows.lazy.filter { row in
                guard !row.deleted else { return false }
                let text = row.text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                return words.allSatisfy { text.contains($0) }
            }.prefix(limit))
    }
}
