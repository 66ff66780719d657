import ChirpClient
import ChirpModels
import ChirpStore
import Foundation

extension AppFeature {
    /// Keys while a message is selected: ↑↓ move, + react, r reply, e edit, d unsend,
    /// o save its attachments, Esc back to the input.
    func selectedMessageKey(_ key: Key, _ id: String, peer: String, _ state: inout State) -> Effect<Action> {
        guard let index = state.messages.firstIndex(where: { $0.id == id }) else {
            state.selectedMessage = nil  // no longer loaded
            return .none
        }
        let row = state.messages[index]
        let mine = row.isOutgoing(for: state.username ?? "")
        switch key {
        case .up:
            if index > 0 {
                state.selectedMessage = state.messages[index - 1].id
                follow(selection: index - 1, &state)
            }
            if index - 1 < state.pageStep * 3 { return loadOlder(&state) }
        case .down:
            state.selectedMessage = index + 1 < state.messages.count ? state.messages[index + 1].id : nil
            if index + 1 < state.messages.count { follow(selection: index + 1, &state) }
        case .pageUp, .pageDown:
            // Paging leaves the selection and moves the view from where it is.
            state.selectedMessage = nil
            return scrollHistory(by: key == .pageUp ? state.pageStep : -state.pageStep, &state)
        case .escape:
            state.selectedMessage = nil
        case .character("/"):
            return openSearch(&state)
        case .character("+") where !row.deleted:
            state.messagePrompt = .react(messageId: id)
        case .character("r") where !row.deleted:
            state.draftPurpose = .reply(messageId: id)
            state.selectedMessage = nil
        case .character("e"):
            if let refusal = editRefusal(row, mine: mine) {
                state.banner = .init(refusal, isError: true)
                return .none
            }
            state.draftPurpose = .edit(messageId: id)
            state.draft = TextInput(text: row.text)
            state.attachments = []
            state.selectedMessage = nil
        case .character("d") where mine && !row.deleted:
            state.messagePrompt = .confirmUnsend(messageId: id)
        case .character("d"):
            state.banner = .init(
                row.deleted ? "This message is already unsent." : "Only your own messages can be unsent.", isError: true
            )
        case .character("o") where !row.media.isEmpty:
            state.messagePrompt = .savePath(messageId: id, TextInput())
        case .character("o"):
            state.banner = .init("This message has no attachment.", isError: false)
        case .character("+"), .character("r"):
            state.banner = .init("This message was unsent.", isError: false)
        default:
            break
        }
        return .none
    }

    /// Why a message cannot be edited now, or nil when it can.
    private func editRefusal(_ row: LocalMessage, mine: Bool) -> String? {
        guard mine else { return "Only your own messages can be edited." }
        guard !row.deleted else { return "This message was unsent." }
        guard let created = Timestamp(rfc3339: row.createdAt),
            client.wallClock().millisecondsSince1970 - created.millisecondsSince1970 < AppState.editWindowMilliseconds
        else {
            return "Messages can be edited for 15 minutes after sending; this one no longer."
        }
        return nil
    }

    /// The answer to a message question, or a key of the path being typed.
    func messagePromptKey(_ key: Key, _ prompt: State.MessagePrompt, peer: String, _ state: inout State) -> Effect<
        Action
    > {
        let client = self.client
        switch prompt {
        case .react(let id):
            state.messagePrompt = nil
            guard let emoji = Self.reaction(for: key) else { return .none }
            let remove = state.message(id)?.hasReaction(emoji, by: state.username ?? "") ?? false
            return .run { send in
                try await client.react(peer, id, emoji, remove)
                await send(.sent)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .confirmUnsend(let id):
            state.messagePrompt = nil
            guard key == .character("y") || key == .character("Y") else { return .none }
            state.selectedMessage = nil
            return .run { send in
                try await client.unsend(peer, id)
                await send(.sent)
            } catch: { error, send in
                await send(.failed(AppClient.describe(error)))
            }
        case .attachPath(var input):
            switch key {
            case .escape:
                state.messagePrompt = nil
            case .enter:
                state.messagePrompt = nil
                return attach(path: input.trimmed, &state)
            default:
                _ = input.handle(key)
                state.messagePrompt = .attachPath(input)
            }
        case .savePath(let id, var input):
            switch key {
            case .escape:
                state.messagePrompt = nil
            case .enter:
                state.messagePrompt = nil
                guard let media = state.message(id)?.media, !media.isEmpty else { return .none }
                let path = input.trimmed
                let destination = path.isEmpty ? nil : URL(fileURLWithPath: NSString(string: path).expandingTildeInPath)
                state.busySince = state.now
                return .run { send in
                    var saved: [URL] = []
                    for item in media { saved.append(try await client.download(item, destination)) }
                    let shown = saved.count == 1 ? saved[0].path : saved[0].deletingLastPathComponent().path
                    await send(
                        .saved(
                            filename: saved.count == 1 ? media[0].displayName : "\(saved.count) attachments", to: shown)
                    )
                } catch: { error, send in
                    await send(.failed(AppClient.describe(error)))
                }
            default:
                _ = input.handle(key)
                state.messagePrompt = .savePath(messageId: id, input)
            }
        }
        return .none
    }

    /// Adds the file at `path` to the next message (at most four).
    private func attach(path: String, _ state: inout State) -> Effect<Action> {
        guard !path.isEmpty else { return .none }
        guard state.attachments.count < Media.maxPerMessage else {
            state.banner = .init(
                "A message carries at most \(Media.maxPerMessage) attachments: send these first.", isError: true)
            return .none
        }
        do {
            state.attachments.append(try client.inspectFile(NSString(string: path).expandingTildeInPath))
        } catch {
            state.banner = .init("Cannot attach \(path): \(AppClient.describe(error))", isError: true)
        }
        return .none
    }

    /// The emoji a key in the reaction picker stands for: 1–6 the quick ones, or one typed.
    static func reaction(for key: Key) -> String? {
        guard case .character(let character) = key else { return nil }
        if let digit = character.wholeNumberValue, (1...AppState.quickReactions.count).contains(digit) {
            return AppState.quickReactions[digit - 1]
        }
        guard let first = character.unicodeScalars.first, !first.isASCII, first.properties.isEmoji else { return nil }
        return String(character)
    }
}

extension Media {
    /// The uploader's file name, else the id.
    var displayName: String { filename ?? id }
}
