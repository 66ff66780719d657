import ChirpModels

/// A group message's send, written once for both engines (its insert is each engine's:
/// `StorageScope.insertGroupMessage`).
extension StorageEngine {
    /// The group's row is locked first, then its members' in id order (`appendGroupMessageEvents`):
    /// the membership cannot change under the send, and every member's stream gets its event
    /// gap-free.
    func sendGroupMessage(_ new: NewGroupMessage, decisions: some GroupDecisions) async throws -> WriteOutcome<Message>?
    {
        try await writing { scope in
            let sender = new.sender
            guard try await scope.lockGroup(new.groupId),
                let membership = try await scope.membership(groupId: new.groupId, userId: sender.id),
                try membership("current", as: Bool.self)
            else { return nil }
            if let existing = try await scope.queryRow(
                GroupSQL.messageByClientId, new.groupId, sender.id, new.clientMessageId
            ).map(MessageColumns.message(from:)) {
                return WriteOutcome(value: try decisions.replay(existing, for: new), created: false)
            }
            try decisions.mayStore(new, encrypted: try membership("encrypted"))
            let id = try await scope.insertGroupMessage(new)
            for (position, item) in new.media.enumerated() {
                guard let mediaId = Int64(item.id) else {
                    throw StorageError.inconsistent("media id \(item.id) is not a number")
                }
                try await scope.run(GroupSQL.attachMedia, id, Int64(position), mediaId)
            }
            let message = Message(
                id: String(id), clientMessageId: new.clientMessageId, sender: sender.username, recipient: "",
                text: new.text, createdAt: new.createdAt, readByRecipient: false, media: new.media,
                replyTo: new.replyTo.map { String($0) }, group: String(new.groupId), envelope: new.envelope)
            let json = decisions.encode(message)
            let appended = try await scope.appendGroupMessageEvents(
                groupId: new.groupId, sender: sender.id, type: EventType.messageCreated, message, at: new.createdAt
            ) { $0.fromBlocked ? decisions.encode($0) : json }
            return WriteOutcome(value: message, created: true, appended: appended, json: json)
        }
    }
}
