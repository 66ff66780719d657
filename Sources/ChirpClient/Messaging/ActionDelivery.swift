import ChirpModels
import ChirpNetworking
import Logging
import Synchronization

/// One entry of a conversation's outbox queue: a message or an action on one, in the order
/// they were written.
enum OutboxItem: Sendable {
    case message(LocalMessage)
    case action(PendingAction)

    /// The position in the queue (messages and actions share the ledger's written order).
    var order: Int64 {
        switch self {
        case .message(let message): message.sortKey - LocalMessage.pendingBase
        case .action(let action): action.order
        }
    }
}

/// Sends one queued action once its message has a server id: the network layer retries
/// transient failures; a refusal (a 4xx) drops the action and brings the message back as the
/// server has it.
struct ActionDelivery: Sendable {
    let ledger: LocalLedger
    let api: ChirpAPIClient
    let retries: RetryPolicy
    let logger: Logger

    enum Outcome {
        case done
        /// The message is not on the server (it failed): the action waits for a retry of it.
        case waiting
        /// The server refused it (the reason, its words); the action was dropped.
        case refused(String)
        case blocked(NetworkError)
    }

    func deliver(_ action: PendingAction) async throws -> Outcome {
        if action.kind.isConversationMark || action.kind.isRequestAnswer {
            return try await ConversationMarkDelivery(ledger: ledger, api: api, retries: retries).deliver(action)
        }
        guard let message = try await ledger.database.messages.fetch(id: action.messageId) else {
            try await ledger.finish(action)
            return .done
        }
        guard let serverId = message.serverId else { return .waiting }
        let edited: Message?
        do {
            edited = try await send(action, serverId: serverId)
        } catch {
            if error == .cancelled || error == .offline || error.isTransient { return .blocked(error) }
            logger.error(
                "outbox action refused", metadata: ["reason": "\(error.kind)", "action": "\(action.kind.rawValue)"])
            let reason: String
            if case .server(_, _, let text, _) = error { reason = text } else { reason = error.description }
            try await ledger.finish(action)
            // The local row showed the action already: take the server's copy back.
            let request = ChirpEndpoints.ListMessages(
                with: action.peer, limit: 1, after: String((Int64(serverId) ?? 1) - 1))
            if let page = try? await api.send(request) {
                try await ledger.merge(page: page.items.map { LocalMessage($0, viewer: ledger.username) })
            }
            return .refused(reason)
        }
        if let edited { try await ledger.applyUpdate(edited) }
        if action.kind == .unsend {
            try await ledger.applyDeletion(
                MessageDeletedNotice(
                    id: serverId, sender: message.sender, recipient: message.recipient, group: message.group))
        }
        try await ledger.finish(action)
        return .done
    }

    /// The call for `action` (the edited message for an edit).
    private func send(_ action: PendingAction, serverId: String) async throws(NetworkError) -> Message? {
        switch action.kind {
        case .react, .unreact:
            var endpoint = ChirpEndpoints.React(
                action.value, to: serverId, with: action.peer, remove: action.kind == .unreact)
            endpoint.retryPolicy = retries
            _ = try await api.send(endpoint)
            return nil
        case .edit:
            var endpoint = ChirpEndpoints.EditMessage(serverId, with: action.peer, text: action.value)
            endpoint.retryPolicy = retries
            return try await api.send(endpoint)
        case .unsend:
            var endpoint = ChirpEndpoints.UnsendMessage(serverId, with: action.peer)
            endpoint.retryPolicy = retries
            _ = try await api.send(endpoint)
            return nil
        case .pin, .unpin, .mute, .unmute, .accept, .decline:
            return nil  // `ConversationMarkDelivery` sends these.
        }
    }
}

/// Refusals of queued actions, kept until someone asks (`UserSession.takeRefusedActions()`).
final class ActionRefusals: Sendable {
    private let reasons = Mutex<[String]>([])

    func add(_ more: [String]) {
        if !more.isEmpty { reasons.withLock { $0 += more } }
    }

    func take() -> [String] {
        reasons.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }
}
