import ChirpModels
import ChirpPersistence

/// Why an answer to a message request could not be queued; nothing was queued.
public enum MessageRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// This user has no request from `peer` waiting for an answer here.
    case noSuchRequest(String)

    public var description: String {
        switch self {
        case .noSuchRequest(let peer):
            "no message request from \(peer) waits for your answer (chirp requests lists them)"
        }
    }
}

extension LocalLedger {
    /// Applies an answer to the request from `peer` at once (accepted: an ordinary
    /// conversation; declined: out of the lists, its messages kept) and queues it for the
    /// outbox, behind what the conversation queued before it.
    func queueAnswer(_ kind: PendingAction.Kind, peer: String) async throws {
        try await write { [self] in
            guard var row = try await database.conversations.fetch(id: peer.lowercased()), row.request else {
                throw MessageRequestError.noSuchRequest(peer)
            }
            if kind == .accept {
                row.request = false
                try await database.conversations.save([row])
            } else {
                _ = try await database.conversations.delete(ids: [row.id])
            }
            try await database.actions.save([
                PendingAction(order: nextOrder(), messageId: "", peer: row.id, kind: kind, value: "")
            ])
            return ((), [.conversations])
        }
    }

    /// Reads the first page of the conversation list (or, with `requests`, of the requests)
    /// from the server and merges it; a failure leaves the stored rows as they are.
    func refreshConversations(requests: Bool, from api: ChirpAPIClient) async throws {
        let request = ChirpEndpoints.ListConversations(page: PageParameters(limit: 100), requests: requests)
        guard let page = try? await api.send(request) else { return }
        try await merge(
            conversations: ConversationSummary.records(from: page, for: request),
            replacing: ConversationSummary.scope(of: request))
    }

    /// Whether a conversation with `peer` is stored here.
    func hasConversation(with peer: String) async throws -> Bool {
        try await database.conversations.fetch(id: peer.lowercased()) != nil
    }

    /// The answers to requests still queued, by peer (lowercased); the last one queued wins.
    func pendingAnswers() async throws -> [String: PendingAction.Kind] {
        var answers: [String: PendingAction.Kind] = [:]
        for action in try await database.pendingActions() where action.kind.isRequestAnswer {
            answers[action.peer] = action.kind
        }
        return answers
    }

    /// `conversation.updated` for a request answered on another device: declined, the row
    /// goes; otherwise it is a request no more. Nothing changes while an answer is queued here.
    func applyAnswer(_ conversation: Conversation) async throws {
        try await write { [self] in
            let id = ConversationSummary.key(of: conversation)
            guard try await pendingAnswers()[id] == nil, var row = try await database.conversations.fetch(id: id) else {
                return ((), [])
            }
            if conversation.declined {
                _ = try await database.conversations.delete(ids: [id])
                return ((), [.conversations])
            }
            guard row.request != conversation.request else { return ((), []) }
            row.request = conversation.request
            try await database.conversations.save([row])
            return ((), [.conversations])
        }
    }
}
