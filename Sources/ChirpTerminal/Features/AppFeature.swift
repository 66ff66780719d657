import ChirpClient
import ChirpModels
import ChirpStore

/// The terminal app's root feature: which screen shows, the session, live events, and the
/// child features (login, compose) scoped into it. Keys go to the screen that shows.
public struct AppFeature: Reducer {
    public typealias State = AppState

    public enum Action: Sendable, Equatable {
        case start
        case restored(String?)
        /// Start-up failed at a step (`ChirpClientApp.start`): the banner says which and what to do.
        case startFailed(String)
        case key(Key)
        /// The terminal is now this many rows high.
        case resized(rows: Int)
        case tick(ContinuousClock.Instant)
        case login(LoginFeature.Action)
        case compose(ComposeFeature.Action)
        case account(AccountFeature.Action)
        case search(SearchFeature.Action)
        case conversationsLoaded([ConversationSummary])
        case requestsLoaded([ConversationSummary])
        /// The request from this peer was accepted (else declined) here.
        case answered(String, accepted: Bool)
        /// A group was created: its conversation key.
        case groupCreated(String)
        /// The open group, loaded.
        case groupLoaded(LocalGroup?)
        /// A change to the open group's members was made: what to say.
        case groupChanged(String)
        case messagesLoaded(peer: String, messages: [LocalMessage], hasMore: Bool)
        case timelineLoaded([TimelineEntry])
        case sync(AppClient.SyncUpdate)
        /// A new message to tell of (`MessageNotices`), once the muted conversations were read.
        case notify(PushNotification)
        /// A message was stored, or one changed (a reaction, an edit, an unsend): the open
        /// conversation reads again.
        case sent
        /// An attachment was saved there.
        case saved(filename: String, to: String)
        case failed(String)
        /// The open conversation's peer was blocked / reported.
        case blocked(String)
        case reported(String)
        /// The conversation with this peer (or group key) is encrypted now.
        case encrypted(String)
        /// The open conversation's safety number, to show.
        case safetyNumberLoaded(AppState.SafetyNumberShown)
        case loggedOut
        /// Go to a screen (from a `chirp://` link); waits for the login when needed.
        case navigate(AppDestination)
    }

    enum CancelID { case sync, ticks, load }

    let client: AppClient

    /// The app over `client`.
    public init(client: AppClient) { self.client = client }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        // Keys on a form screen belong to that form's feature.
        var action = action
        // Any key takes the notice away (and is handled as always).
        if case .key = action, state.notice != nil { state.notice = nil }
        if case .key(let key) = action, key != .control("c") {
            if state.screen == .login { action = .login(.key(key)) }
            if state.screen == .compose { action = .compose(.key(key)) }
            if state.screen == .account { action = .account(.key(key)) }
            if state.screen == .search { action = .search(.key(key)) }
        }
        return CombineReducers<State, Action>([
            Scope(
                state: \State.login,
                action: ActionLink(embed: Action.login, extract: { if case .login(let a) = $0 { a } else { nil } }),
                child: LoginFeature(client: client)),
            Scope(
                state: \State.compose,
                action: ActionLink(embed: Action.compose, extract: { if case .compose(let a) = $0 { a } else { nil } }),
                child: ComposeFeature(client: client)),
            Scope(
                state: \State.account,
                action: ActionLink(embed: Action.account, extract: { if case .account(let a) = $0 { a } else { nil } }),
                child: AccountFeature(client: client)),
            Scope(
                state: \State.search,
                action: ActionLink(embed: Action.search, extract: { if case .search(let a) = $0 { a } else { nil } }),
                child: SearchFeature(client: client, username: state.username ?? "")),
            Reduce { state, action in self.core(&state, action) },
        ]).reduce(into: &state, action: action)
    }

    private func core(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .start:
            let client = self.client
            return .merge(
                .run { send in
                    await send(.restored(try await client.restore()))
                } catch: { error, send in
                    await send(.startFailed(Self.startupBanner(error)))
                },
                .run { send in for await now in client.ticks() { await send(.tick(now)) } }.cancellable(
                    id: CancelID.ticks))
        case .restored(let username):
            guard let username else {
                state.screen = .login
                return .none
            }
            return sessionStarted(&state, username)
        case .startFailed(let text):
            state.screen = .login
            state.banner = .init(text, isError: true)
            return .none
        case .login(.delegate(.loggedIn(let username))):
            return sessionStarted(&state, username)
        case .login, .compose(.key), .compose(.posted), .compose(.failed), .account(.key), .account(.sessionsLoaded),
            .account(.sessionEnded), .account(.passwordChanged), .account(.failed), .search(.key), .search(.loaded),
            .search(.failed):
            return .none
        case .search(.delegate(.close)):
            state.screen = state.returnTo
            if state.screen == .conversations { return loadConversations(&state, refresh: false) }
            return .none
        case .search(.delegate(.open(let peer, let messageId))):
            let effect = openConversation(peer, &state)
            state.pendingSelection = messageId
            return effect
        case .account(.delegate(.done(let banner))):
            state.screen = .settings
            state.banner = banner.map { .init($0, isError: false) }
            return .none
        case .account(.delegate(.accountDeleted)):
            return signedOut(&state, banner: "Account deleted; its data on this device is wiped too.")
        case .compose(.delegate(.done(let posted))):
            state.screen = .timeline
            return posted ? loadTimeline(&state) : .none
        case .key(let key):
            return handle(key, &state)
        case .resized(let rows):
            state.screenRows = rows
            return .none
        case .tick(let now):
            state.now = now
            state.typing = state.typing.filter { $0.value > now }
            if let notice = state.notice, notice.until <= now { state.notice = nil }
            return .none
        case .conversationsLoaded(let rows):
            state.busySince = nil
            // The selection follows its conversation when the list reorders (a pin moves it).
            let selected =
                state.conversations.indices.contains(state.selectedConversation)
                ? state.conversations[state.selectedConversation].id : nil
            state.conversations = rows
            state.selectedConversation =
                rows.firstIndex { $0.id == selected } ?? min(state.selectedConversation, max(rows.count - 1, 0))
            return .none
        case .requestsLoaded(let rows):
            state.busySince = nil
            state.requests = rows
            state.selectedRequest = min(state.selectedRequest, max(rows.count - 1, 0))
            return .none
        case .groupCreated(let key):
            state.busySince = nil
            return openConversation(key, &state)
        case .groupLoaded(let group):
            state.group = group
            state.selectedMember = min(state.selectedMember, max((group?.members.count ?? 1) - 1, 0))
            return .none
        case .groupChanged(let text):
            state.banner = .init(text, isError: false)
            return .none
        case .answered(let peer, let accepted):
            state.banner = .init(
                accepted
                    ? "Accepted \(peer)'s request: the conversation is in your list." : "Declined \(peer)'s request.",
                isError: false)
            return loadRequests(&state, refresh: false)
        case .messagesLoaded(let peer, let messages, let hasMore):
            guard peer == state.peer else { return .none }
            // Reads run at once and may answer out of order: one that lacks the newest message
            // shown and holds only older ones was read before it was stored, and would take the
            // view back. (One whose messages are newer is not stale: a page read from the server
            // after time away opens a newer stretch, which the view then shows.) A load of older
            // messages it may have answered is over all the same: the next PgUp asks again.
            if let newest = state.messages.last, let answered = messages.last,
                !messages.contains(where: { $0.id == newest.id }), answered.sortKey < newest.sortKey
            {
                (state.loadingOlder, state.busySince) = (false, nil)
                return .none
            }
            state.busySince = nil
            state.loadingOlder = false
            // Scrolled up, the view stays on its messages while newer ones arrive below.
            if state.scroll > 0, let newest = state.messages.last?.id,
                let at = messages.lastIndex(where: { $0.id == newest })
            {
                state.scroll += messages.count - 1 - at
            }
            state.scroll = min(state.scroll, max(messages.count - 1, 0))
            state.messages = messages
            state.hasOlderMessages = hasMore
            return selectPending(&state)
        case .timelineLoaded(let tweets):
            state.busySince = nil
            state.tweets = tweets
            state.newTweets = 0
            return .none
        case .sync(let update):
            return apply(update, &state)
        case .notify(let notification):
            return show(notification, &state)
        case .sent:
            return reloadMessages(state, refresh: false)  // the outbox already stored the result
        case .saved(let filename, let path):
            state.busySince = nil
            state.banner = .init("Saved \(filename) to \(path)", isError: false)
            return .none
        case .failed(let message):
            state.busySince = nil
            state.banner = .init(message, isError: true)
            return .none
        case .navigate(let destination):
            guard state.username != nil else {
                state.pendingDestination = destination
                return .none
            }
            return navigate(to: destination, &state)
        case .blocked(let peer):
            state.busySince = nil
            state.banner = .init(
                "Blocked \(peer): they cannot message or follow you. chirp unblock \(peer) undoes it.", isError: false)
            if state.screen == .conversation, state.peer?.lowercased() == peer.lowercased() {
                return closeConversation(&state)
            }
            if state.screen == .requests { return loadRequests(&state, refresh: false) }
            return .none
        case .reported(let peer):
            state.busySince = nil
            state.banner = .init("Reported \(peer) to the server's operators.", isError: false)
            return .none
        case .encrypted(let peer):
            return encryptionTurnedOn(peer, &state)
        case .safetyNumberLoaded(let number):
            return showSafetyNumber(number, &state)
        case .loggedOut:
            return signedOut(&state, banner: "Logged out; this user's local data is deleted.")
        }
    }

    /// Back to the login screen with nothing of the user kept (after logout or deletion).
    private func signedOut(_ state: inout State, banner: String) -> Effect<Action> {
        let theme = state.theme
        state = AppState(now: state.now, theme: theme)
        state.banner = .init(banner, isError: false)
        return .cancel(id: CancelID.sync)
    }

    /// The banner for a failed start-up: the step, the reason and what to do.
    static func startupBanner(_ error: any Error) -> String {
        guard let failure = error as? StartupFailure else { return AppClient.describe(error) }
        if failure.error is AccountError { return AppClient.describe(failure.error) }
        let title = failure.step.title
        return
            "\(title.prefix(1).uppercased() + title.dropFirst()) failed: \(AppClient.describe(failure.error)) — \(failure.remedy)."
    }

    private func sessionStarted(_ state: inout State, _ username: String) -> Effect<Action> {
        state.username = username
        state.bellOnNewMessages = client.loadBell()
        state.screen = .conversations
        state.connection = "connecting"
        let client = self.client
        var effects: [Effect<Action>] = [
            .run { send in for await update in client.updates() { await send(.sync(update)) } }.cancellable(
                id: CancelID.sync, cancelInFlight: true),
            loadConversations(&state),
        ]
        if let destination = state.pendingDestination {
            state.pendingDestination = nil
            effects.append(.send(.navigate(destination)))
        }
        return .merge(effects)
    }

    private func navigate(to destination: AppDestination, _ state: inout State) -> Effect<Action> {
        switch destination {
        case .conversations:
            state.screen = .conversations
            return loadConversations(&state)
        case .conversation(let peer):
            return openConversation(peer, &state)
        case .timeline:
            state.screen = .timeline
            return loadTimeline(&state)
        case .compose:
            state.returnTo = .timeline
            state.screen = .compose
            return .none
        case .settings:
            state.returnTo = .conversations
            state.settingsSelection = Theme.Name.allCases.firstIndex(of: state.theme) ?? 0
            state.screen = .settings
            return .none
        case .help:
            state.returnTo = .conversations
            state.screen = .help
            return .none
        }
    }

    /// Reads the conversation list; with `refresh` the server is asked first (and a spinner may
    /// show), without it only the local database is read (the sync engine keeps it current).
    func loadConversations(_ state: inout State, refresh: Bool = true) -> Effect<Action> {
        if refresh { state.busySince = state.busySince ?? state.now }
        let client = self.client
        return .run { send in
            await send(.conversationsLoaded(try await client.conversations(refresh)))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    /// Reads the message requests, as `loadConversations` reads the list.
    func loadRequests(_ state: inout State, refresh: Bool = true) -> Effect<Action> {
        if refresh { state.busySince = state.busySince ?? state.now }
        let client = self.client
        return .run { send in
            await send(.requestsLoaded(try await client.requests(refresh)))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    /// Selects the message a search result opened, once loaded; loads older pages (up to ten)
    /// while it is not among them.
    private func selectPending(_ state: inout State) -> Effect<Action> {
        guard let id = state.pendingSelection else { return .none }
        if let row = state.message(id) {
            state.selectedMessage = row.id
            state.pendingSelection = nil
            return .none
        }
        guard state.hasOlderMessages, state.messageLimit < AppState.pageSize * 10 else {
            state.pendingSelection = nil
            state.banner = .init("That message is no longer in this conversation.", isError: false)
            return .none
        }
        state.messageLimit += AppState.pageSize
        state.busySince = state.now
        return reloadMessages(state)
    }

    func openConversation(_ peer: String, _ state: inout State) -> Effect<Action> {
        resetConversation(&state)
        state.peer = peer
        state.screen = .conversation
        state.busySince = state.now
        return reloadMessages(state).cancellable(id: CancelID.load, cancelInFlight: true)
    }

    /// Leaves the open conversation for the list (Escape, or blocking its peer).
    func closeConversation(_ state: inout State) -> Effect<Action> {
        resetConversation(&state)
        state.peer = nil
        state.screen = .conversations
        return .merge(.cancel(id: CancelID.load), loadConversations(&state))
    }

    /// Everything a conversation screen holds, back to nothing: opening or leaving one never
    /// carries the last one's draft, selection or attachments along.
    private func resetConversation(_ state: inout State) {
        state.messages = []
        state.messageLimit = AppState.pageSize
        state.loadingOlder = false
        state.scroll = 0
        state.draft = TextInput()
        state.selectedMessage = nil
        state.pendingSelection = nil
        state.messagePrompt = nil
        state.draftPurpose = nil
        state.attachments = []
    }

    /// Reads the open conversation's newest `messageLimit` messages and marks them read; with
    /// `refresh` the server is asked first, without it only the local database is read.
    func reloadMessages(_ state: State, refresh: Bool = true) -> Effect<Action> {
        guard let peer = state.peer, state.screen == .conversation else { return .none }
        let client = self.client
        let limit = state.messageLimit
        return .run { send in
            let page = try await client.messages(peer, limit, refresh)
            await send(.messagesLoaded(peer: peer, messages: page.messages, hasMore: page.hasMore))
            await client.markRead(peer)
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }

    func loadTimeline(_ state: inout State) -> Effect<Action> {
        state.busySince = state.now
        let client = self.client
        return .run { send in
            await send(.timelineLoaded(try await client.timeline()))
        } catch: { error, send in
            await send(.failed(AppClient.describe(error)))
        }
    }
}
