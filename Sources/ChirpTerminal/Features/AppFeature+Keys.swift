import ChirpClient
import ChirpModels
import ChirpStore

extension AppFeature {
    /// Routes a key to the screen that shows. Every key first clears the banner.
    func handle(_ key: Key, _ state: inout State) -> Effect<Action> {
        if key == .control("c") {
            state.quit = true
            return .merge(.cancel(id: CancelID.sync), .cancel(id: CancelID.ticks))
        }
        if state.banner != nil, state.screen != .login { state.banner = nil }
        switch state.screen {
        case .login, .compose, .account, .search:
            return .none  // routed to the form's feature before this reducer runs
        case .help:
            state.screen = state.returnTo
            return .none
        case .settings:
            return settingsKey(key, &state)
        case .conversations:
            return conversationsKey(key, &state)
        case .requests:
            return requestsKey(key, &state)
        case .newConversation:
            return newConversationKey(key, &state)
        case .newGroup:
            return newGroupKey(key, &state)
        case .groupMembers:
            return groupMembersKey(key, &state)
        case .conversation:
            return conversationKey(key, &state)
        case .safetyNumber:
            return safetyNumberScreenKey(key, &state)
        case .timeline:
            return timelineKey(key, &state)
        }
    }

    /// Keys every list screen shares: help, settings, quit, logout.
    func commonKey(_ key: Key, _ state: inout State) -> Effect<Action>? {
        switch key {
        case .character("?"):
            state.returnTo = state.screen
            state.screen = .help
            return Effect.none
        case .character("s"):
            state.returnTo = state.screen
            state.settingsSelection = Theme.Name.allCases.firstIndex(of: state.theme) ?? 0
            state.screen = .settings
            return Effect.none
        case .character("q"):
            state.quit = true
            return .merge(.cancel(id: CancelID.sync), .cancel(id: CancelID.ticks))
        case .character("L"):
            state.busySince = state.now
            let client = self.client
            return .run { send in
                try await client.logout()
                await send(.loggedOut)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        default:
            return nil
        }
    }

    private func conversationsKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        if let effect = commonKey(key, &state) { return effect }
        switch key {
        case .up, .character("k"):
            state.selectedConversation = max(state.selectedConversation - 1, 0)
        case .down, .character("j"):
            state.selectedConversation = min(state.selectedConversation + 1, max(state.conversations.count - 1, 0))
        case .enter:
            guard state.conversations.indices.contains(state.selectedConversation) else { return .none }
            return openConversation(state.conversations[state.selectedConversation].peerName, &state)
        case .character("p"), .character("m"):
            guard state.conversations.indices.contains(state.selectedConversation) else { return .none }
            let row = state.conversations[state.selectedConversation]
            // A group is a conversation from joining it; a follower's row, only from a message.
            guard row.hasMessages || row.isGroup else {
                state.banner = .init(
                    "No messages with \(row.shownName) yet: pin or mute a conversation once it has one.", isError: true)
                return .none
            }
            let mark: AppClient.ConversationMark =
                key == .character("p") ? (row.pinned ? .unpin : .pin) : (row.muted ? .unmute : .mute)
            let client = self.client
            // The list reads again when the local row changed (`.changed(.conversations)`).
            return .run { _ in
                try await client.markConversation(row.peerName, mark)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .character("R"):
            state.screen = .requests
            state.selectedRequest = 0
            return loadRequests(&state)
        case .character("n"):
            state.newPeer = TextInput(limit: 15)
            state.screen = .newConversation
        case .character("g"):
            openNewGroup(&state)
        case .character("r"):
            return loadConversations(&state)
        case .character("/"):
            return openSearch(&state)
        case .tab, .character("t"):
            state.screen = .timeline
            return loadTimeline(&state)
        default:
            break
        }
        return .none
    }

    /// The search screen, over what shows now (the open conversation only, when one is).
    func openSearch(_ state: inout State) -> Effect<Action> {
        state.returnTo = state.screen
        state.search = SearchFeature.State(openedFrom: state.screen == .conversation ? state.peer : nil)
        state.screen = .search
        return .none
    }

    private func newConversationKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        switch key {
        case .escape:
            state.screen = .conversations
        case .enter:
            let peer = state.newPeer.trimmed
            guard !peer.isEmpty else { return .none }
            return openConversation(peer, &state)
        case .character(let character) where !(character.isLetter || character.isNumber || character == "_"):
            break
        default:
            _ = state.newPeer.handle(key)
        }
        return .none
    }

    private func timelineKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        if let effect = commonKey(key, &state) { return effect }
        switch key {
        case .escape, .tab:
            state.screen = .conversations
            return loadConversations(&state)
        case .character("r"):
            state.timelineScroll = 0
            return loadTimeline(&state)
        case .character("c"):
            state.returnTo = .timeline
            state.screen = .compose
        case .up, .character("k"):
            state.timelineScroll = max(state.timelineScroll - 1, 0)
        case .down, .character("j"):
            state.timelineScroll = min(state.timelineScroll + 1, max(state.tweets.count - 1, 0))
        default:
            break
        }
        return .none
    }

    private func settingsKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        let themes = Theme.Name.allCases
        let bell = AppState.bellSettingsRow
        switch key {
        case .up, .character("k"):
            state.settingsSelection = max(state.settingsSelection - 1, 0)
        case .down, .character("j"):
            state.settingsSelection = min(state.settingsSelection + 1, bell + AppState.accountItems.count)
        case .enter where state.settingsSelection == bell:
            state.bellOnNewMessages.toggle()
            let (client, on) = (self.client, state.bellOnNewMessages)
            return .run { _ in client.saveBell(on) }
        case .enter where state.settingsSelection > bell:
            let page = AppState.accountItems[state.settingsSelection - bell - 1].page
            state.account = AccountFeature.State(page: page)
            state.screen = .account
            return page == .sessions ? AccountFeature(client: client).loadSessions().map(Action.account) : .none
        case .enter:
            let theme = themes[state.settingsSelection]
            state.theme = theme
            state.screen = state.returnTo
            let client = self.client
            return .run { _ in client.saveTheme(theme) }
        case .escape:
            state.screen = state.returnTo
        default:
            break
        }
        return .none
    }
}
