import ChirpClient
import ChirpModels
import ChirpStore

extension AppFeature {
    /// What the sync engine and the local data tell the app: live events, the connection's
    /// state, local changes, attachment transfers.
    func apply(_ update: AppClient.SyncUpdate, _ state: inout State) -> Effect<Action> {
        switch update {
        case .connection(let text):
            state.connection = text
            return .none
        case .transfer(var progress):
            if progress.filename.isEmpty { progress.filename = Self.filename(of: progress, in: state) }
            if let failure = progress.failure {
                state.banner = .init(
                    "\(progress.filename) did not \(progress.isUpload ? "upload" : "download"): \(failure)",
                    isError: true)
            }
            if let index = state.transfers.firstIndex(where: { $0.id == progress.id }) {
                if progress.isFinished { state.transfers.remove(at: index) } else { state.transfers[index] = progress }
            } else if !progress.isFinished {
                state.transfers.append(progress)
            }
            return .none
        case .changed(.messages(let peer)):
            let refused = client.refusedActions()
            if !refused.isEmpty { state.banner = .init("Not done: " + refused.joined(separator: "; "), isError: true) }
            // A send acknowledged or refused, a receipt: the open conversation reads again.
            if state.screen == .conversation, state.peer?.lowercased() == peer {
                return reloadMessages(state, refresh: false)
            }
            return .none
        case .changed(.conversations):
            if state.screen == .conversations { return loadConversations(&state, refresh: false) }
            if state.screen == .requests { return loadRequests(&state, refresh: false) }
            return .none
        case .changed:
            return .none
        case .event(let event):
            switch event.payload {
            case .messageCreated(let message):
                state.typing[Self.typingKey(message.sender, group: message.group)] = nil
                let notice = self.notice(for: event, &state)
                if state.screen == .conversation {
                    return .merge(reloadIfOpen(between: message.sender, and: message.recipient, state), notice)
                }
                if state.screen == .conversations { return .merge(loadConversations(&state, refresh: false), notice) }
                return notice
            case .messageUpdated(let message):
                // The ledger has applied the edit or reaction; the open conversation reads again.
                return reloadIfOpen(between: message.sender, and: message.recipient, state)
            case .messageDeleted(let notice):
                return reloadIfOpen(between: notice.sender, and: notice.recipient, state)
            case .messageRead(let receipt):
                if state.screen == .conversation, state.peer?.lowercased() == receipt.reader.lowercased() {
                    return reloadMessages(state, refresh: false)
                }
                return .none
            case .typing(let notice):
                state.typing[Self.typingKey(notice.from, group: notice.group)] = state.now + .seconds(30)
                return .none
            case .tweetCreated:
                state.newTweets += 1
                return .none
            case .followCreated(let notice):
                state.banner = .init("\(notice.follower.username) follows you now.", isError: false)
                return .none
            case .blockCreated, .blockDeleted, .conversationUpdated:
                // The ledger changed the local lists; its change reloads what is shown.
                return .none
            case .userDeleted(let notice):
                // The ledger has already dropped the conversation under their name (see
                // `LocalLedger.forgetDeletedUser`); a refresh brings it back as the deleted account's.
                state.banner = .init("\(notice.username) deleted their account.", isError: false)
                if state.screen == .conversations { return loadConversations(&state, refresh: true) }
                return .none
            case .eventsPruned:
                // The session read the lists again; the one on screen shows them.
                if state.screen == .conversations { return loadConversations(&state, refresh: false) }
                return .none
            case .deviceChanged(let notice):
                return devicesChanged(notice.user, &state)
            case .groupCreated, .groupUpdated, .groupRemoved, .unknown:
                return .none
            }
        }
    }

    /// Reads the open conversation again when it is the one between `sender` and `recipient`.
    func reloadIfOpen(between sender: String, and recipient: String, _ state: State) -> Effect<Action> {
        guard state.screen == .conversation, let peer = state.peer?.lowercased(),
            [sender.lowercased(), recipient.lowercased()].contains(peer)
        else { return .none }
        return reloadMessages(state, refresh: false)
    }

    /// The name of the file a transfer moves: the message's attachment at its place, or the
    /// media's file name for a download.
    static func filename(of progress: TransferProgress, in state: State) -> String {
        if let id = progress.messageId, let row = state.message(id), row.attachments.indices.contains(progress.index) {
            return row.attachments[progress.index].name
        }
        let media = state.messages.lazy.flatMap(\.media).first { $0.id == progress.id }
        return media?.displayName ?? "attachment"
    }

    /// Whose typing `AppState.typing` holds: a peer, or `g:ID/member` in a group.
    static func typingKey(_ from: String, group: String?) -> String {
        group.map { "\(ConversationKey.group($0))/\(from.lowercased())" } ?? from.lowercased()
    }
}
