import ChirpModels
import Synchronization

@testable import ChirpServer

/// A `MessageStore` with facts set by the test: it asks the send's decisions as both storages
/// do, stores what they allow in memory, and records which calls reached it.
final class MessageStoreDouble: MessageStore {
    struct State {
        var recipients: [String: RecipientFacts] = [:]
        var stored: [Message] = []
        var calls: [String] = []
        var markRead: MarkReadOutcome = .unchanged
    }

    let state = Mutex(State())

    init(recipients: [RecipientFacts] = []) {
        state.withLock { state in
            for facts in recipients { state.recipients[Validation.usernameKey(facts.username)] = facts }
        }
    }

    var calls: [String] { state.withLock { $0.calls } }
    var stored: [Message] { state.withLock { $0.stored } }

    private func record(_ call: String) { state.withLock { $0.calls.append(call) } }

    func sendMessage(_ new: NewMessage, decisions: some SendDecisions) async throws -> WriteOutcome<Message> {
        record("sendMessage")
        return try state.withLock { state in
            let facts = state.recipients[Validation.usernameKey(new.recipient)]
            let earlier = state.stored.first {
                $0.sender == new.sender.username && $0.clientMessageId == new.clientMessageId
            }
            if case .replay(let message) = try decisions.decide(facts, for: new, earlier: { earlier }) {
                return WriteOutcome(value: message, created: false)
            }
            if let earlier { return WriteOutcome(value: try decisions.replay(earlier, for: new), created: false) }
            let recipient = facts!
            let message = Message(
                id: String(state.stored.count + 1), clientMessageId: new.clientMessageId, sender: new.sender.username,
                recipient: recipient.username, text: new.text, createdAt: new.createdAt, readByRecipient: false)
            state.stored.append(message)
            let json = decisions.encode(message)
            let appended = [new.sender.id, recipient.id].map {
                AppendedEvent(
                    userId: $0,
                    event: StoredEvent(
                        seq: Int64(state.stored.count), type: EventType.messageCreated, createdAt: new.createdAt,
                        json: json))
            }
            return WriteOutcome(value: message, created: true, appended: appended, json: json)
        }
    }

    func message(sender: Int64, clientMessageId: String) async throws -> Message? {
        record("message")
        return state.withLock { $0.stored.first { $0.clientMessageId == clientMessageId } }
    }

    func recipientFacts(sender: Int64, recipientKey: String) async throws -> RecipientFacts? {
        record("recipientFacts")
        return state.withLock { $0.recipients[recipientKey] }
    }

    func messages(viewer: Int64, peerKey: String, after: Int64, before: Int64, ascending: Bool, limit: Int) async throws
        -> [Message]?
    {
        record("messages")
        guard state.withLock({ $0.recipients[peerKey] }) != nil else { return nil }
        let between = stored.filter { Int64($0.id)! > after && Int64($0.id)! < before }
        return Array((ascending ? between : between.reversed()).prefix(limit))
    }

    func conversations(viewer: Int64, before cursor: Int64, limit: Int, requests: Bool) async throws -> [Listed<
        Conversation
    >] {
        record("conversations")
        return []
    }

    func markRead(
        reader: Int64, peerKey: String, upTo: Int64, at: Timestamp,
        receipt: @escaping @Sendable (String, Bool) throws -> String?
    ) async throws -> MarkReadOutcome {
        record("markRead")
        return state.withLock { $0.markRead }
    }
}
