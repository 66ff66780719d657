import ChirpClient
import ChirpModels
import ChirpStore

extension AppFeature {
    /// Keys on the requests screen: a block or report question waiting for its answer first;
    /// then ↑↓ select, a accepts, d declines, x blocks (asks first), p reports (asks why),
    /// Enter reads the conversation, r refreshes, Esc goes back to the conversations.
    func requestsKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        let selected =
            state.requests.indices.contains(state.selectedRequest) ? state.requests[state.selectedRequest] : nil
        if let prompt = state.safetyPrompt, let selected {
            return safetyAnswer(key, to: prompt, about: selected.peerName, &state)
        }
        state.safetyPrompt = nil
        if let effect = commonKey(key, &state) { return effect }
        switch key {
        case .up, .character("k"):
            state.selectedRequest = max(state.selectedRequest - 1, 0)
        case .down, .character("j"):
            state.selectedRequest = min(state.selectedRequest + 1, max(state.requests.count - 1, 0))
        case .escape:
            state.screen = .conversations
            return loadConversations(&state, refresh: false)
        case .character("r"):
            return loadRequests(&state)
        case .enter:
            guard let selected else { return .none }
            return openConversation(selected.peerName, &state)
        case .character("a"), .character("d"):
            guard let selected else { return .none }
            let accept = key == .character("a")
            let client = self.client
            return .run { send in
                try await client.answerRequest(selected.peerName, accept)
                await send(.answered(selected.shownName, accepted: accept))
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .character("x") where selected?.isGroup == true, .character("p") where selected?.isGroup == true:
            state.banner = .init(
                "A group's members are blocked or reported one by one, from their own conversation.", isError: false)
        case .character("x") where selected != nil:
            state.safetyPrompt = .confirmBlock
        case .character("p") where selected != nil:
            state.safetyPrompt = .chooseReason
        default:
            break
        }
        return .none
    }
}
