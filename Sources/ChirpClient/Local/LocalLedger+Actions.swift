import ChirpModels
import ChirpPersistence
import Foundation

/// Why a message action could not be queued.
public enum MessageActionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No stored message has this local id (in this conversation).
    case noSuchMessage(String)
    /// The text or emoji breaks a rule; nothing was queued.
    case invalid(String)

    public var description: String {
        switch self {
        case .noSuchMessage(let id): "no message \(id) here (see chirp messages USER for the ids)"
        case .invalid(let reason): reason
        }
    }
}

extension LocalLedger {
    /// Applies an action to the local row at once and queues it for the outbox, behind the
    /// message (if still pending) and every action queued before it.
    func queue(_ kind: PendingAction.Kind, _ value: String, on messageId: String, peer: String) async throws
        -> PendingAction
    {
        try await write { [self] in
            guard var row = try await database.messages.fetch(id: messageId), row.peer == peer.lowercased() else {
                throw MessageActionError.noSuchMessage(messageId)
            }
            row = Self.applying(kind, value, to: row, by: username)
            let action = PendingAction(
                order: nextOrder(), messageId: messageId, peer: row.peer, kind: kind, value: value)
            try await database.messages.save([row])
            try await database.actions.save([action])
            var changes: [LocalChange] = [.messages(peer: row.peer)]
            if try await updateConversations(with: [row], unread: []) { changes.append(.conversations) }
            return (action, changes)
        }
    }

    /// An action as the local row shows it before the server confirms it.
    static func applying(_ kind: PendingAction.Kind, _ value: String, to row: LocalMessage, by user: String)
        -> LocalMessage
    {
        var row = row
        guard !row.deleted else { return row }
        // A pending message is sent with the text it was written with (a retry must match what
        // the server may already hold): its edit or unsend shows once the server confirms it.
        if row.serverId == nil, kind == .edit || kind == .unsend { return row }
        switch kind {
        case .react:
            if let index = row.reactions.firstIndex(where: { $0.emoji == value }) {
                if !row.reactions[index].users.contains(user) {
                    row.reactions[index].users.append(user)
                    row.reactions[index].count = row.reactions[index].users.count
                }
            } else {
                row.reactions.append(MessageReaction(emoji: value, users: [user]))
            }
        case .unreact:
            if let index = row.reactions.firstIndex(where: { $0.emoji == value }) {
                row.reactions[index].users.removeAll { $0 == user }
                row.reactions[index].count = row.reactions[index].users.count
                if row.reactions[index].users.isEmpty { row.reactions.remove(at: index) }
            }
        case .edit:
            row.text = value
            row.editedAt = Timestamp.now().rfc3339
        case .unsend:
            row = row.unsent()
        case .pin, .unpin, .mute, .unmute, .accept, .decline:
            break
        }
        return row
    }

    /// The outbox sent (or gave up on) an action: it leaves the queue.
    func finish(_ action: PendingAction) async throws {
        try await write { [self] in
            try await database.actions.delete(ids: [action.id])
            return ((), [])
        }
    }

    /// `message.updated`: the whole message as the server now has it. Applying it twice changes
    /// nothing; arriving before the message itself, it is stored as the message (which then
    /// keeps this content when `message.created` comes).
    func applyUpdate(_ message: Message, opened: OpenedEnvelope? = nil) async throws {
        let opened = await opening(message, given: opened)
        try await write { [self] in
            let incoming = LocalMessage(message, viewer: username, opened: opened)
            let stored = try await database.messages.fetch(id: incoming.id)
            let merged = try await applyingEarlyTombstones(to: [stored.map { $0.merged(with: incoming) } ?? incoming])[
                0]
            var changes: [LocalChange] = []
            if merged != stored {
                try await database.messages.save([merged])
                changes.append(.messages(peer: merged.peer))
            }
            if try await updateConversations(with: [merged], unread: []) { changes.append(.conversations) }
            return ((), changes)
        }
    }

    /// `message.deleted`: the message becomes a tombstone; one not stored yet is remembered and
    /// made one when it arrives. Twice changes nothing.
    func applyDeletion(_ notice: MessageDeletedNotice) async throws {
        try await write { [self] in
            let rows = try await database.messages.fetch(RecordQuery().filter("serverId", .equal, .text(notice.id)))
            guard !rows.isEmpty else {
                try await database.earlyTombstones.save([EarlyTombstone(id: notice.id)])
                return ((), [])
            }
            // A take-down marks a row even when its sender had unsent it already.
            let byOperators = notice.removedByOperators == true
            let changed = rows.filter { !$0.isTombstone(byOperators: byOperators) }
                .map { $0.unsent(byOperators: byOperators) }
            guard !changed.isEmpty else { return ((), []) }
            try await database.messages.save(changed)
            var changes: [LocalChange] = Set(changed.map(\.peer)).sorted().map { .messages(peer: $0) }
            if try await updateConversations(with: changed, unread: []) { changes.append(.conversations) }
            return ((), changes)
        }
    }

    /// `rows` with those whose unsend came first made tombstones (inside a write job).
    func applyingEarlyTombstones(to rows: [LocalMessage]) async throws -> [LocalMessage] {
        let ids = rows.compactMap(\.serverId)
        guard !ids.isEmpty else { return rows }
        let early = Set(
            try await database.earlyTombstones.fetch(RecordQuery().filter("id", in: ids.map { .text($0) })).map(\.id))
        guard !early.isEmpty else { return rows }
        return rows.map { row in row.serverId.map(early.contains) == true ? row.unsent() : row }
    }
}
