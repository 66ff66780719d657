import ChirpModels

/// Which arriving messages raise a notification, decided as the server decides its pushes
/// (API.md part 4): a new message or message request from someone else, in a conversation the
/// user has not muted. The terminal app's notice and `chirp watch --notify` ask it.
public struct MessageNotices: Sendable {
    /// The user the notifications are for.
    public let viewer: String

    public init(viewer: String) {
        self.viewer = viewer
    }

    /// The notification `event` raises, as a push would carry it (with its text); nil for
    /// every other event, the user's own messages and the conversations in `muted` (keys, as
    /// `ConversationKey` spells them).
    public func notification(for event: Event, muted: Set<String>) -> PushNotification? {
        guard case .messageCreated(let message) = event.payload,
            message.sender.lowercased() != viewer.lowercased(), !message.deleted
        else { return nil }
        let key = message.group.map(ConversationKey.group) ?? message.sender.lowercased()
        guard !muted.contains(key) else { return nil }
        return PushNotification(
            conversation: message.group.map { .group($0) } ?? .direct(message.sender), sender: message.sender,
            messageId: message.id, text: message.envelope == nil ? message.text : ConversationSummary.sealedText)
    }
}

extension UserSession {
    /// The keys of the conversations this user muted, from the local copy.
    public func mutedConversations() async throws -> Set<String> {
        Set(try await conversations(refresh: false).filter(\.muted).map(\.id))
    }
}
