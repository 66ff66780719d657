import ChirpModels

/// The rules of message actions (API.md part 2), written once and asked by both storages
/// inside the action's transaction with the facts they read (`MessageFacts`): who may edit or
/// unsend, the edit window, the reaction cap, idempotent repeats, and blocks (a blocked pair
/// cannot react or edit either way, as they cannot send).
struct MessageActionRules: Sendable {
    /// The acting user.
    let viewer: Viewer
    /// The peer as the request named them.
    let peerName: String
    let now: Timestamp
    let editWindow: Duration

    /// Adds (or with `remove` takes back) the viewer's `emoji`.
    func react(_ emoji: String, remove: Bool, _ facts: MessageFacts) throws -> MessageChange {
        var message = facts.message
        var reactions = message.reactions
        let index = reactions.firstIndex { $0.emoji == emoji }
        if remove {
            guard let index, let position = reactions[index].users.firstIndex(of: viewer.username) else { return .none }
            reactions[index].users.remove(at: position)
            reactions[index].count = reactions[index].users.count
            if reactions[index].users.isEmpty { reactions.remove(at: index) }
        } else {
            if facts.message.deleted { throw Self.deleted }
            if let refusal = blockRefusal(facts) { throw refusal }
            if let index {
                guard !reactions[index].users.contains(viewer.username) else { return .none }
                reactions[index].users.append(viewer.username)
                reactions[index].count = reactions[index].users.count
            } else {
                guard reactions.count < Validation.maxDistinctReactions else {
                    throw APIError(
                        .unprocessableContent, APIErrorCode.tooManyReactions,
                        "A message carries at most \(Validation.maxDistinctReactions) different reactions.",
                        field: "emoji")
                }
                reactions.append(MessageReaction(emoji: emoji, users: [viewer.username]))
            }
        }
        message.reactions = reactions
        return .update(message)
    }

    /// Replaces the text (already checked by `Validation.messageText`) and stamps `editedAt`.
    func edit(to text: String, _ facts: MessageFacts) throws -> MessageChange {
        try mayEdit(facts)
        // An encrypted message is edited with a new envelope only.
        if facts.message.envelope != nil { throw EncryptionRules.encryptionRequired }
        guard text != facts.message.text else { return .none }
        var message = facts.message
        message.text = text
        message.editedAt = now
        return .update(message)
    }

    /// Gives an encrypted message a new envelope (its new text is inside), as `edit(to:)` does
    /// text: the sender only, within the edit window, never a tombstone.
    func edit(to envelope: Envelope, _ facts: MessageFacts) throws -> MessageChange {
        try mayEdit(facts)
        guard facts.message.envelope != nil else { throw EncryptionRules.encryptionNotEnabled }
        guard envelope != facts.message.envelope else { return .none }
        var message = facts.message
        message.envelope = envelope
        message.editedAt = now
        return .update(message)
    }

    /// The sender may still edit the message: theirs, not unsent, within the window, no block
    /// between the two.
    private func mayEdit(_ facts: MessageFacts) throws {
        guard facts.viewerIsSender else { throw Self.notSender("edit") }
        if facts.message.deleted { throw Self.deleted }
        guard now.millisecondsSince1970 - facts.message.createdAt.millisecondsSince1970 <= editWindow.milliseconds
        else {
            throw APIError(
                .forbidden, APIErrorCode.editWindowClosed,
                "A message can be edited for \(editWindow.milliseconds / 60_000) minutes after it was sent.")
        }
        if let refusal = blockRefusal(facts) { throw refusal }
    }

    /// Makes the message a tombstone; unsending it again changes nothing.
    func unsend(_ facts: MessageFacts) throws -> MessageChange {
        guard facts.viewerIsSender else { throw Self.notSender("unsend") }
        return facts.message.deleted ? .none : .unsend
    }

    /// The answer a send between the two would get when a block stands between them.
    private func blockRefusal(_ facts: MessageFacts) -> APIError? {
        if facts.viewerBlockedPeer { return APIError.youBlocked(peerName) }
        if facts.peerBlockedViewer { return APIError.dmNotAllowed(peerName) }
        return nil
    }

    static let deleted = APIError(.conflict, APIErrorCode.messageDeleted, "This message was unsent.")

    static func notSender(_ action: String) -> APIError {
        APIError(.forbidden, APIErrorCode.notSender, "Only the sender can \(action) a message.")
    }
}
