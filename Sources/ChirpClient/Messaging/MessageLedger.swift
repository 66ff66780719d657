import ChirpModels
import ChirpPersistence
import Foundation

/// The one writer of a user's local messages and conversation list in this process: the
/// outbox and the sync engine both record what they learn here, and each change is a read,
/// merge and write that nothing else in the process interleaves with. States only move
/// forward (`DeliveryState.advanced(to:)`), so replays and late answers are harmless.
public actor MessageLedger {
    let database: ClientDatabase
    /// The user whose messages these are.
    public let username: String
    private var lastOrder: Int64 = 0

    /// A ledger over `database` for `username`.
    public init(database: ClientDatabase, username: String) {
        self.database = database
        self.username = username
    }

    /// Stores a new outgoing message as `pending` and returns it.
    func addPending(to recipient: String, text: String, clientMessageId: String = UUID().uuidString) async throws -> LocalMessage {
        // Written order: microseconds since 1970, strictly increasing in this process.
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        lastOrder = max(now, lastOrder + 1)
        let message = LocalMessage(
            pendingFrom: username, to: recipient, clientMessageId: clientMessageId, text: text, order: lastOrder, at: .now())
        try await database.messages.save([message])
        return message
    }

    /// Records a message the server has (from a send's reply, an event or a page), moving the
    /// stored row's state forward to `state` (or to what the message itself says). Returns
    /// whether the message was new here.
    @discardableResult
    func record(_ message: Message, state: DeliveryState? = nil) async throws -> Bool {
        var incoming = LocalMessage(message, viewer: username)
        if let state { incoming.state = state }
        let stored = try await database.messages.fetch(id: incoming.id)
        let merged = stored.map { $0.merged(with: incoming) } ?? incoming
        if merged != stored { try await database.messages.save([merged]) }
        try await updateConversation(with: message, isNew: stored == nil)
        return stored == nil
    }

    /// Records many messages of one conversation page.
    func record(page messages: [Message]) async throws {
        for message in messages { try await record(message) }
    }

    /// Marks a pending message failed with the server's reason.
    func markFailed(_ id: String, reason: String) async throws {
        guard var stored = try await database.messages.fetch(id: id), stored.state == .pending else { return }
        stored.state = .failed
        stored.failure = reason
        try await database.messages.save([stored])
    }

    /// Puts a failed message back in the outbox. Throws if there is no such failed message.
    func requeue(_ id: String) async throws -> LocalMessage {
        guard var stored = try await database.messages.fetch(id: id), stored.state == .failed else {
            throw OutboxError.notFailed(id)
        }
        stored.state = .pending
        stored.failure = nil
        try await database.messages.save([stored])
        return stored
    }

    /// `reader` read this user's messages up to server id `upTo`: they become `read`.
    func markRead(by reader: String, upTo: String) async throws {
        guard let limit = Int64(upTo) else { return }
        let rows = try await database.messages.fetch(
            RecordQuery().filter("peer", .equal, .text(reader.lowercased())).filter("sortKey", .lessOrEqual, .integer(limit)))
        let changed = rows.filter { $0.isOutgoing(for: username) && $0.state != .read && $0.serverId != nil }.map { row -> LocalMessage in
            var row = row
            row.state = .read
            return row
        }
        if !changed.isEmpty { try await database.messages.save(changed) }
    }

    /// This user read `peer`'s messages: the conversation has nothing unread.
    func clearUnread(peer: String) async throws {
        guard var row = try await database.conversations.fetch(id: peer.lowercased()), row.unreadCount != 0 else { return }
        row.unreadCount = 0
        try await database.conversations.save([row])
    }

    private func updateConversation(with message: Message, isNew: Bool) async throws {
        let outgoing = message.sender.lowercased() == username.lowercased()
        let peerName = outgoing ? message.recipient : message.sender
        let order = Int64(message.id) ?? 0
        var row = try await database.conversations.fetch(id: peerName.lowercased()) ?? ConversationSummary(
            id: peerName.lowercased(), peerName: peerName, peerDisplayName: peerName, lastSender: message.sender,
            lastText: message.text, lastOrder: 0, lastAt: message.createdAt.rfc3339, unreadCount: 0)
        let before = row
        if order >= row.lastOrder {
            row.lastSender = message.sender
            row.lastText = message.text
            row.lastOrder = order
            row.lastAt = message.createdAt.rfc3339
        }
        if isNew, !outgoing, !message.readByRecipient { row.unreadCount += 1 }
        if row != before { try await database.conversations.save([row]) }
    }
}
