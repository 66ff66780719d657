import ChirpModels

extension GroupMessageAction {
    /// Asks `change` about `message` (sent by `senderId`) for the acting `viewer` (in a group a
    /// block stops no action: the members see the blocked sender's messages marked instead);
    /// nil when nothing changes.
    static func decide(
        _ message: Message, senderId: Int64, viewer: Int64, _ change: (MessageFacts) throws -> MessageChange
    ) throws -> GroupMessageAction? {
        let facts = MessageFacts(
            message: message, viewerIsSender: senderId == viewer, viewerBlockedPeer: false, peerBlockedViewer: false)
        switch try change(facts) {
        case .none: return nil
        case .update(let updated): return GroupMessageAction(change: .update(updated), type: EventType.messageUpdated)
        case .unsend: return GroupMessageAction(change: .unsend, type: EventType.messageDeleted)
        }
    }
}
