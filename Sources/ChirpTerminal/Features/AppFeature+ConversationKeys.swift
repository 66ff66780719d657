import ChirpClient
import ChirpModels
import ChirpStore
import Foundation

extension AppFeature {
    /// Keys in a conversation: a question waiting for its answer first, then the keys of a
    /// selected message, then the input's.
    func conversationKey(_ key: Key, _ state: inout State) -> Effect<Action> {
        guard let peer = state.peer else { return .none }
        if let prompt = state.safetyPrompt { return safetyAnswer(key, to: prompt, about: peer, &state) }
        if let prompt = state.messagePrompt { return messagePromptKey(key, prompt, peer: peer, &state) }
        if let selected = state.selectedMessage { return selectedMessageKey(key, selected, peer: peer, &state) }
        switch key {
        case .control("g") where ConversationKey.isGroup(peer):
            return openGroupMembers(ConversationKey.groupId(of: peer) ?? "", &state)
        case .control("x") where ConversationKey.isGroup(peer), .control("p") where ConversationKey.isGroup(peer):
            state.banner = .init(
                "A group's members are blocked or reported one by one, from their own conversation.", isError: false)
        case .control("x"):
            state.safetyPrompt = .confirmBlock
        case .control("p"):
            state.safetyPrompt = .chooseReason
        case .control("e"):
            return encryptKey(peer: peer, &state)
        case .control("k"):
            return safetyNumberKey(peer: peer, &state)
        case .control("a"):
            state.messagePrompt = .attachPath(TextInput())
        case .character("/") where state.draft.text.isEmpty:
            return openSearch(&state)
        case .backspace where state.draft.text.isEmpty && !state.attachments.isEmpty:
            state.attachments.removeLast()
        case .escape where state.draftPurpose != nil:
            if case .edit = state.draftPurpose { state.draft = TextInput() }
            state.draftPurpose = nil
        case .escape:
            return closeConversation(&state)
        case .enter:
            return submitDraft(peer: peer, &state)
        case .up where !state.messages.isEmpty:
            // From the input, ↑ selects the message at the bottom of the view.
            state.selectedMessage = state.messages[state.bottomIndex].id
        case .pageUp:
            return scrollHistory(by: state.pageStep, &state)
        case .pageDown:
            return scrollHistory(by: -state.pageStep, &state)
        case .control("r"):
            guard let failed = state.messages.last(where: { $0.state == .failed }) else {
                state.banner = .init("No failed message to retry.", isError: false)
                return .none
            }
            let client = self.client
            return .run { send in
                try await client.retry(failed.id)
                await send(.sent)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        default:
            guard state.draft.handle(key, multiline: true) else { return .none }
            // Typing notices are for a new message, not for correcting an old one.
            if case .character = key, !state.isEditing {
                let client = self.client
                return .run { _ in await client.typing(peer) }
            }
        }
        return .none
    }

    /// Moves the view `delta` messages up (older) or down; nearing the oldest loaded, loads
    /// older ones (from the device, or from the server where a gap or the start lies).
    func scrollHistory(by delta: Int, _ state: inout State) -> Effect<Action> {
        state.scroll = min(max(state.scroll + delta, 0), max(state.messages.count - 1, 0))
        guard delta > 0, state.bottomIndex < state.pageStep * 3 else { return .none }
        return loadOlder(&state)
    }

    /// Loads more messages before the oldest loaded, unless none are older or a load is
    /// already under way.
    func loadOlder(_ state: inout State) -> Effect<Action> {
        guard state.hasOlderMessages, !state.loadingOlder else { return .none }
        state.loadingOlder = true
        state.messageLimit += AppState.olderStep
        state.busySince = state.now
        return reloadMessages(state)
    }

    /// Keeps the selected message (at `index`) in the view: the view follows it down, and up
    /// once it leaves the page above.
    func follow(selection index: Int, _ state: inout State) {
        let fromNewest = state.messages.count - 1 - index
        if fromNewest < state.scroll || fromNewest > state.scroll + state.pageStep { state.scroll = max(fromNewest, 0) }
    }

    /// Enter in the input: sends the draft (a reply, with the attachments), or saves the edit.
    private func submitDraft(peer: String, _ state: inout State) -> Effect<Action> {
        let text = state.draft.trimmed
        let client = self.client
        if case .edit(let id) = state.draftPurpose {
            guard !text.isEmpty else {
                state.banner = .init(
                    "An edit needs some text: Esc keeps the message as it is, or unsend it with d.", isError: true)
                return .none
            }
            state.draft = TextInput()
            state.draftPurpose = nil
            return .run { send in
                try await client.edit(peer, id, text)
                await send(.sent)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        }
        guard !text.isEmpty || !state.attachments.isEmpty else { return .none }
        var replyTo: String?
        if case .reply(let id) = state.draftPurpose { replyTo = id }
        let outgoing = AppClient.Outgoing(text: text, replyTo: replyTo, attachments: state.attachments.map(\.url))
        state.draft = TextInput()
        state.draftPurpose = nil
        state.attachments = []
        state.scroll = 0
        return .run { send in
            try await client.send(peer, outgoing)
            await send(.sent)
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    /// The key that answers a block or report question: `y` blocks; 1, 2, 3 report for spam,
    /// abuse, other; anything else (Esc) cancels.
    func safetyAnswer(_ key: Key, to prompt: State.SafetyPrompt, about peer: String, _ state: inout State) -> Effect<
        Action
    > {
        state.safetyPrompt = nil
        let client = self.client
        switch (prompt, key) {
        case (.confirmEncrypt, .character("y")), (.confirmEncrypt, .character("Y")):
            return turnOnEncryption(peer, &state)
        case (.confirmBlock, .character("y")), (.confirmBlock, .character("Y")):
            state.busySince = state.now
            return .run { send in
                try await client.block(peer)
                await send(.blocked(peer))
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case (.chooseReason, .character(let digit)) where ["1", "2", "3"].contains(digit):
            let reason: ReportReason = digit == "1" ? .spam : digit == "2" ? .abuse : .other
            state.busySince = state.now
            return .run { send in
                try await client.report(peer, reason)
                await send(.reported(peer))
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        default:
            return .none
        }
    }
}
