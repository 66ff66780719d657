import ChirpClient
import ChirpModels
import ChirpStore

extension AppFeature {
    /// The notice a live event raises: a new message from someone else, in a conversation that
    /// is neither muted (`MessageNotices`) nor open on screen. The muted ones are the loaded
    /// list's; before the list is loaded the client is asked (then `.notify` shows it).
    func notice(for event: Event, _ state: inout State) -> Effect<Action> {
        guard let username = state.username else { return .none }
        let notices = MessageNotices(viewer: username)
        guard let unmuted = notices.notification(for: event, muted: []), !Self.isOpen(unmuted.conversation, state)
        else { return .none }
        guard state.conversations.isEmpty else {
            let muted = Set(state.conversations.filter(\.muted).map(\.id))
            guard let notification = notices.notification(for: event, muted: muted) else { return .none }
            return show(notification, &state)
        }
        let client = self.client
        return .run { send in
            // Unknown mutes raise nothing: a muted conversation must stay quiet.
            guard let muted = try? await client.mutedConversations(),
                let notification = notices.notification(for: event, muted: muted)
            else { return }
            await send(.notify(notification))
        }
    }

    /// Shows the notice of `notification` (unless its conversation opened meanwhile) and rings
    /// the bell when the user turned it on.
    func show(_ notification: PushNotification, _ state: inout State) -> Effect<Action> {
        guard !Self.isOpen(notification.conversation, state) else { return .none }
        state.notice = .init(Self.noticeText(notification, state), until: state.now + AppState.noticeDuration)
        guard state.bellOnNewMessages else { return .none }
        let client = self.client
        return .run { _ in await client.bell() }
    }

    /// Whether `conversation` is the one open on screen.
    static func isOpen(_ conversation: PushNotification.Conversation, _ state: State) -> Bool {
        guard state.screen == .conversation, let peer = state.peer else { return false }
        if let group = conversation.group { return peer == ConversationKey.group(group) }
        return peer.lowercased() == conversation.peer?.lowercased()
    }

    /// `New: bob: the start of the text` (`New: bob in Trip: …` in a group): readable without
    /// colors. The text's lines are joined; the screen cuts it to its width.
    static func noticeText(_ notification: PushNotification, _ state: State) -> String {
        var from = notification.sender
        if let group = notification.conversation.group {
            let key = ConversationKey.group(group)
            from += " in " + (state.conversations.first { $0.id == key }?.shownName ?? "group \(group)")
        }
        let text = (notification.text ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        return "New: \(from): " + (text.isEmpty ? "(attachment)" : String(text.prefix(300)))
    }
}
