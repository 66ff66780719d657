import ChirpClient
import ChirpModels

/// Rendering: a pure function from the app's state (and the terminal's size) to a frame.
public enum AppView {
    /// The smallest terminal the app draws in.
    public static let minimumSize = (width: 40, height: 10)
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The frame for `state` at `width`×`height`.
    public static func render(_ state: AppState, width: Int, height: Int, noColor: Bool = false) -> Frame {
        let theme = Theme.named(state.theme, noColor: noColor)
        var canvas = Canvas(width: width, height: height, theme: theme)
        guard width >= minimumSize.width, height >= minimumSize.height else {
            canvas.text(
                "Window too small: Chirp needs \(minimumSize.width)×\(minimumSize.height).", x: 0, y: 0,
                style: theme.error, maxX: width)
            return canvas.frame
        }
        statusBar(state, &canvas)
        let body = 1..<(height - 2)
        switch state.screen {
        case .login: LoginScreen.draw(state, in: body, on: &canvas)
        case .conversations: ConversationListScreen.draw(state, in: body, on: &canvas)
        case .newConversation: ConversationListScreen.drawNewConversation(state, in: body, on: &canvas)
        case .conversation: ConversationScreen.draw(state, in: body, on: &canvas)
        case .timeline: TimelineScreen.draw(state, in: body, on: &canvas)
        case .compose: ComposeScreen.draw(state, in: body, on: &canvas)
        case .help: HelpScreen.draw(state, in: body, on: &canvas)
        case .settings: SettingsScreen.draw(state, noColor: noColor, in: body, on: &canvas)
        case .account: AccountScreen.draw(state, in: body, on: &canvas)
        case .search: SearchScreen.draw(state, in: body, on: &canvas)
        case .requests: RequestsScreen.draw(state, in: body, on: &canvas)
        case .newGroup: NewGroupScreen.draw(state, in: body, on: &canvas)
        case .groupMembers: NewGroupScreen.drawMembers(state, in: body, on: &canvas)
        case .safetyNumber: SafetyNumberScreen.draw(state, in: body, on: &canvas)
        }
        if state.screen == .conversation, let prompt = state.safetyPrompt {
            canvas.bar(y: height - 2, left: " " + question(prompt, peer: state.peer ?? "them"), style: theme.notice)
        } else if state.screen == .requests, let prompt = state.safetyPrompt,
            state.requests.indices.contains(state.selectedRequest)
        {
            canvas.bar(
                y: height - 2, left: " " + question(prompt, peer: state.requests[state.selectedRequest].peerName),
                style: theme.notice)
        } else if state.screen == .conversation, let prompt = state.messagePrompt {
            canvas.bar(y: height - 2, left: " " + question(prompt), style: theme.notice)
        } else if state.screen == .groupMembers, let input = state.newMember {
            canvas.bar(
                y: height - 2, left: " Add to the group (someone you may message): " + input.text + "▏",
                style: theme.notice)
        } else if state.screen == .groupMembers, let name = state.confirmingRemoval {
            canvas.bar(
                y: height - 2, left: " Remove \(name) from the group? They keep what they saw. y: remove",
                style: theme.notice)
        } else if state.screen == .account, let question = accountQuestion(state) {
            canvas.bar(y: height - 2, left: " " + question, style: theme.notice)
        } else if let notice = state.notice {
            canvas.bar(y: height - 2, left: fitted(" " + notice.text, columns: width - 1), style: theme.notice)
        } else if let banner = state.banner {
            canvas.bar(y: height - 2, left: " " + banner.text, style: banner.isError ? theme.error : theme.notice)
        }
        canvas.bar(y: height - 1, left: " " + hints(for: state), style: theme.muted)
        return canvas.frame
    }

    /// `text` cut to `columns`, ending in `…` when cut.
    static func fitted(_ text: String, columns: Int) -> String {
        guard TextWidth.of(text) > columns else { return text }
        return TextWidth.prefix(text, fitting: columns - 1) + "…"
    }

    static func statusBar(_ state: AppState, _ canvas: inout Canvas) {
        let user = state.username.map { " · \($0)" } ?? ""
        var right = state.username == nil ? "" : (state.connection == "live" ? "● live" : "○ \(state.connection)")
        if state.showsSpinner {
            let elapsed = state.busySince.map { state.now - $0 } ?? .zero
            let index =
                Int(elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000)
                % spinner.count
            right = spinner[index] + " " + right
        }
        canvas.bar(
            y: 0,
            left: " Chirp\(user) · \(state.conversationEncrypted && state.screen == .conversation ? "🔒 " : "")"
                + title(state.screen, peer: state.conversationTitle), right: right + " ",
            style: canvas.theme.statusBar)
    }

    static func title(_ screen: AppState.Screen, peer: String?) -> String {
        switch screen {
        case .login: "log in"
        case .conversations: "conversations"
        case .newConversation: "new message"
        case .conversation: peer ?? "conversation"
        case .safetyNumber: "safety number"
        case .timeline: "timeline"
        case .compose: "new tweet"
        case .help: "help"
        case .settings: "settings"
        case .account: "account"
        case .search: "search"
        case .requests: "message requests"
        case .newGroup: "new group"
        case .groupMembers: "members"
        }
    }

    /// The confirmation line before ending a session or deleting the account.
    static func accountQuestion(_ state: AppState) -> String? {
        let account = state.account
        if account.confirmingDelete {
            return "Delete the account \(state.username ?? "") for good? This cannot be undone. y: delete"
        }
        guard let id = account.confirmingEnd, let session = account.sessions.first(where: { $0.id == id }) else {
            return nil
        }
        return "End the session of \(session.userAgent ?? "an unknown client")? That device is logged out. y: end"
    }

    /// The keys of the conversation, for what is going on in it.
    static func conversationHints(_ state: AppState) -> String {
        switch state.messagePrompt {
        case .react: return "1–6 or an emoji: react (again: take it back) · any other key: cancel"
        case .confirmUnsend: return "y unsend · any other key: cancel"
        case .attachPath: return "Enter attach · Esc cancel"
        case .savePath: return "Enter save · Esc cancel"
        case nil: break
        }
        if state.selectedMessage != nil {
            return "↑↓ select · + react · r reply · e edit · d unsend · o save file · Esc back"
        }
        switch state.draftPurpose {
        case .edit: return "Enter save the edit · Esc cancel"
        case .reply: return "Enter send the reply · Ctrl-A attach · Esc cancel"
        case nil: break
        }
        if let peer = state.peer, ConversationKey.isGroup(peer) {
            return "Enter send · ↑ select · Ctrl-G members · Ctrl-A attach · / search · Esc back"
        }
        return "Enter send · ↑ select · Ctrl-A attach · / search · Ctrl-R retry · Esc back"
    }

    /// The keys that answer a block or report question, while one waits.
    static func safetyHints(_ state: AppState) -> String? {
        switch state.safetyPrompt {
        case .confirmBlock: "y block · any other key: cancel"
        case .chooseReason: "1 spam · 2 abuse · 3 other · Esc cancel"
        case .confirmEncrypt: "y encrypt · any other key: cancel"
        case nil: nil
        }
    }

    /// The confirmation line before a block or a report.
    static func question(_ prompt: AppState.SafetyPrompt, peer: String) -> String {
        switch prompt {
        case .confirmBlock: "Block \(peer)? They can no longer message or follow you, and leave your lists. y: block"
        case .chooseReason: "Report \(peer) to the server's operators, for: 1 spam · 2 abuse · 3 other"
        case .confirmEncrypt:
            "Encrypt for good? From now on only its members' devices read it. y: encrypt"
        }
    }

    /// The line of a question about the selected message, or of a path being typed.
    static func question(_ prompt: AppState.MessagePrompt) -> String {
        switch prompt {
        case .react:
            "React with: "
                + AppState.quickReactions.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: "  ")
                + "  or type one"
        case .confirmUnsend: "Unsend this message? It becomes \"message unsent\" for both of you. y: unsend"
        case .attachPath(let input): "Attach file: " + input.text + "▏"
        case .savePath(_, let input): "Save to (empty: the download cache): " + input.text + "▏"
        }
    }

    static func hints(for state: AppState) -> String {
        switch state.screen {
        case .login:
            state.login.mode == .login
                ? "Enter log in · Tab field · Ctrl-R register instead · Ctrl-C quit"
                : "Enter create account · Tab field · Ctrl-R log in instead · Ctrl-C quit"
        case .conversations: "Enter open · n new · g group · R requests · / search · t timeline · ? help"
        case .newGroup:
            state.newGroup.choosingMembers
                ? "↑↓ select · Space pick · Tab title · Enter create · Esc back"
                : "type the title · Tab members · Enter create · Esc back"
        case .groupMembers:
            state.newMember != nil
                ? "Enter add · Esc cancel"
                : state.confirmingRemoval != nil
                    ? "y remove · any other key: cancel"
                    : state.group?.isAdmin(state.username ?? "") == true
                        ? "↑↓ select · + add · a admin on/off · x remove · l leave · Esc back"
                        : "↑↓ select · l leave · Esc back"
        case .requests:
            safetyHints(state)
                ?? "↑↓ select · a accept · d decline · x block · p report · Enter read · r refresh · Esc back"
        case .newConversation: "Enter open · Esc back"
        case .conversation: safetyHints(state) ?? conversationHints(state)
        case .timeline: "r refresh · c compose · ↑↓ scroll · Esc conversations · ? help · q quit"
        case .compose: "Enter post · Alt-Enter new line · Esc cancel"
        case .search:
            "type words · Enter search, then open · ↑↓ choose"
                + (state.search.openedFrom == nil ? "" : " · Tab all/this chat") + " · Esc back"
        case .help: "any key: back"
        case .safetyNumber: "any key: back to the conversation"
        case .settings: "↑↓ choose · Enter apply or open · Esc back"
        case .account:
            switch state.account.page {
            case .sessions:
                state.account.confirmingEnd != nil
                    ? "y end the session · any other key: cancel"
                    : "↑↓ select · x end the selected session · r refresh · Esc back"
            case .password: "Tab next field · Enter change · Esc cancel"
            case .delete:
                state.account.confirmingDelete
                    ? "y delete the account · any other key: cancel" : "Enter continue · Esc cancel"
            }
        }
    }
}
