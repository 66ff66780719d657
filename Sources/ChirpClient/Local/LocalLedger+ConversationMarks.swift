import ChirpModels
import ChirpPersistence

/// Why a pin or mute could not be queued; nothing was queued.
public enum ConversationMarkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no conversation with this user here (no message either way yet).
    case noSuchConversation(String)
    /// Already `Validation.maxPinnedConversations` pinned.
    case tooManyPinned

    public var description: String {
        switch self {
        case .noSuchConversation(let peer): "no conversation with \(peer) yet: one message either way starts it"
        case .tooManyPinned: "at most \(Validation.maxPinnedConversations) conversations can be pinned: unpin one first"
        }
    }
}

extension LocalLedger {
    /// Applies a pin or mute to the conversation's row at once and queues it for the outbox,
    /// behind what the conversation queued before it. Pinning a pinned one (or any repeat)
    /// queues nothing.
    func queueMark(_ kind: PendingAction.Kind, peer: String) async throws {
        try await write { [self] in
            guard var row = try await database.conversations.fetch(id: peer.lowercased()) else {
                throw ConversationMarkError.noSuchConversation(peer)
            }
            let marked = try await marking(row, kind)
            guard marked != row else { return ((), []) }
            row = marked
            try await database.conversations.save([row])
            try await database.actions.save([
                PendingAction(order: nextOrder(), messageId: "", peer: row.id, kind: kind, value: "")
            ])
            return ((), [.conversations])
        }
    }

    /// `conversation.updated`: this user's marks as the server now has them (after a change
    /// on any of their devices). A conversation with a pin or mute still queued here keeps
    /// what it shows: the queued change is newer, and its own event follows.
    func applyMarks(_ conversation: Conversation) async throws {
        try await write { [self] in
            let id = ConversationSummary.key(of: conversation)
            guard try await pendingMarkPeers().contains(id) == false else { return ((), []) }
            let stored = try await database.conversations.fetch(id: id)
            var row = stored ?? ConversationSummary(conversation)
            if stored == nil { (row.pinOrder, row.muted) = (0, false) }
            for kind in [conversation.pinned ? PendingAction.Kind.pin : .unpin, conversation.muted ? .mute : .unmute] {
                row = try await marking(row, kind, enforcingLimit: false)
            }
            guard row != stored else { return ((), []) }
            try await database.conversations.save([row])
            return ((), [.conversations])
        }
    }

    /// The server refused a queued pin or mute (no such conversation there, too many pinned):
    /// it leaves the queue and the row loses that mark (a refreshed list then shows the
    /// server's marks for the conversations it has).
    func dropRefused(_ action: PendingAction) async throws {
        try await write { [self] in
            try await database.actions.delete(ids: [action.id])
            guard var row = try await database.conversations.fetch(id: action.peer) else { return ((), []) }
            if [.pin, .unpin].contains(action.kind) { row.pinOrder = 0 } else { row.muted = false }
            try await database.conversations.save([row])
            return ((), [.conversations])
        }
    }

    /// The peers (lowercased) with a pin or mute still queued.
    func pendingMarkPeers() async throws -> Set<String> {
        Set(try await database.pendingActions().filter(\.kind.isConversationMark).map(\.peer))
    }

    /// `row` with the mark applied; a new pin sorts above every other pin. Throws
    /// `tooManyPinned` for a new pin past the limit when `enforcingLimit`.
    private func marking(_ row: ConversationSummary, _ kind: PendingAction.Kind, enforcingLimit: Bool = true)
        async throws -> ConversationSummary
    {
        var row = row
        switch kind {
        case .pin where !row.pinned:
            let pinned = try await database.conversations.fetch(ConversationSummary.pinnedRows)
            if enforcingLimit, pinned.count >= Validation.maxPinnedConversations {
                throw ConversationMarkError.tooManyPinned
            }
            row.pinOrder = (pinned.map(\.pinOrder).max() ?? 0) + 1
        case .unpin: row.pinOrder = 0
        case .mute: row.muted = true
        case .unmute: row.muted = false
        default: break
        }
        return row
    }
}
