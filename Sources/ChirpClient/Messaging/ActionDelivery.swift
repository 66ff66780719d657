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
        var opened: OpenedEnvelope?
        do {
            var sealed = action.kind == .edit && message.isEncrypted
            if action.kind == .edit, !sealed { sealed = try await ledger.isEncrypted(action.peer) }
            if sealed {
                (edited, opened) = try await sealedEdit(action, of: message, serverId: serverId)
            } else {
                edited = try await send(action, serverId: serverId)
            }
        } catch {
            if let error = error as? NetworkError, error == .cancelled || error == .offline || error.isTransient {
                return .blocked(error)
            }
            let kind = (error as? NetworkError)?.kind ?? String(describing: type(of: error))
            logger.error("outbox action refused", metadata: ["reason": "\(kind)", "action": "\(action.kind.rawValue)"])
            let reason: String
            if case .server(_, _, let text, _) = error as? NetworkError {
                reason = text
            } else {
                reason = String(describing: error)
            }
            try await ledger.finish(action)
            // The local row showed the action already: take the server's copy back.
            let request = ChirpEndpoints.ListMessages(
                with: action.peer, limit: 1, after: String((Int64(serverId) ?? 1) - 1))
            if let page = try? await api.send(request) {
                try await ledger.merge(messages: page.items)
            }
            return .refused(reason)
        }
        if let edited { try await ledger.applyUpdate(edited, opened: opened) }
        if action.kind == .unsend {
            try await ledger.applyDeletion(
                MessageDeletedNotice(
                    id: serverId, sender: message.sender, recipient: message.recipient, group: message.group))
        }
        try await ledger.finish(action)
        return .done
    }

    /// An edit in an encrypted conversation: the new text sealed under the message's client id
    /// (its reply and attachments kept), sealed again to the devices a `devices_changed`
    /// answer names. Returns the edited message and what was sealed.
    private func sealedEdit(_ action: PendingAction, of message: LocalMessage, serverId: String) async throws -> (
        Message, OpenedEnvelope
    ) {
        guard let crypto = ledger.crypto else { throw EncryptionError.noDevices(ledger.username) }
        let plaintext = EncryptedPlaintext(text: action.value, replyTo: message.replyTo, media: message.mediaKeys)
        var devices: [String: [Device]]?
        for _ in 0..<OutboxPass.sealAttempts {
            let sealed = try await crypto.seal(
                plaintext, in: action.peer, clientMessageId: message.clientMessageId, devices: devices)
            var endpoint = ChirpEndpoints.EditMessage(serverId, with: action.peer, text: action.value)
            endpoint.envelope = sealed.envelope
            endpoint.retryPolicy = retries
            switch try await api.sendReadingConflict(endpoint) {
            case .reply(let edited): return (edited, .opened(plaintext))
            case .conflict(let body) where body.error.code == APIErrorCode.devicesChanged:
                devices = body.error.devices
            case .conflict(let body):
                throw NetworkError.server(
                    status: 409, code: body.error.code, message: body.error.message, field: body.error.field)
            }
        }
        throw EncryptionError.devicesKeptChanging
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
