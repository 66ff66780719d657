import ChirpClient
import ChirpModels
import ChirpStore

/// Encrypted conversations in the terminal app: Ctrl-E in a conversation turns its
/// encryption on (after a yes), Ctrl-K in a direct one shows the safety number to compare, a
/// notice says when someone of the open conversation changed their devices, and the list and
/// the title mark encrypted conversations with 🔒.
extension AppFeature {
    /// Ctrl-E: asks before turning encryption on (it cannot be undone); says so when it is on.
    func encryptKey(peer: String, _ state: inout State) -> Effect<Action> {
        if state.conversationEncrypted {
            state.banner = .init(
                "🔒 Already encrypted: only its members' devices read it.", isError: false)
        } else {
            state.safetyPrompt = .confirmEncrypt
        }
        return .none
    }

    /// `y` to the question: turns it on.
    func turnOnEncryption(_ peer: String, _ state: inout State) -> Effect<Action> {
        state.busySince = state.now
        let client = self.client
        return .run { send in
            try await client.turnOnEncryption(peer)
            await send(.encrypted(peer))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    /// Encryption is on: the banner says what it means, and the list (with its 🔒) reads again.
    func encryptionTurnedOn(_ peer: String, _ state: inout State) -> Effect<Action> {
        state.busySince = nil
        let compare = ConversationKey.isGroup(peer) ? "" : " Ctrl-K shows the safety number to compare."
        state.banner = .init(
            "🔒 Encrypted: only your devices and theirs can read what is sent now.\(compare)", isError: false)
        return loadConversations(&state, refresh: false)
    }

    /// Ctrl-K: the safety number of a direct conversation (a group has one per member).
    func safetyNumberKey(peer: String, _ state: inout State) -> Effect<Action> {
        guard !ConversationKey.isGroup(peer) else {
            state.banner = .init(
                "Safety numbers are per person: open a member's own conversation and press Ctrl-K there.",
                isError: false)
            return .none
        }
        state.busySince = state.now
        let client = self.client
        return .run { send in
            await send(.safetyNumberLoaded(.init(peer: peer, digits: try await client.safetyNumber(peer))))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    func showSafetyNumber(_ number: State.SafetyNumberShown, _ state: inout State) -> Effect<Action> {
        state.busySince = nil
        guard state.screen == .conversation, state.peer?.lowercased() == number.peer.lowercased() else { return .none }
        state.safetyNumber = number
        state.screen = .safetyNumber
        return .none
    }

    /// Any key on the safety number goes back to the conversation.
    func safetyNumberScreenKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        state.safetyNumber = nil
        state.screen = .conversation
        return .none
    }

    /// `device.changed`: when the user is the open conversation's peer (or a member of the
    /// open group, as last loaded), a notice says so.
    func devicesChanged(_ user: String, _ state: inout State) -> Effect<Action> {
        guard state.screen == .conversation || state.screen == .safetyNumber, let peer = state.peer,
            user.lowercased() != state.username?.lowercased()
        else { return .none }
        let concerned =
            if let id = ConversationKey.groupId(of: peer) {
                state.group?.id == id
                    && state.group?.members.contains { $0.user.username.lowercased() == user.lowercased() } == true
            } else {
                peer.lowercased() == user.lowercased()
            }
        guard concerned else { return .none }
        let compare = ConversationKey.isGroup(peer) ? "" : ": Ctrl-K shows the new safety number"
        state.notice = .init("🔒 \(user)'s devices changed\(compare)", until: state.now + AppState.noticeDuration)
        return .none
    }
}
