import ChirpClient
import ChirpModels

/// Everything the terminal app shows, as one value: rendering is a function of it.
public struct AppState: Sendable, Equatable {
    /// The screens.
    public enum Screen: Sendable, Equatable {
        case login, conversations, newConversation, conversation, timeline, compose, help, settings, search
        /// The message requests waiting for an answer (R from the conversations).
        case requests
        /// Sessions, password change or account deletion (`account.page`), from Settings.
        case account
        /// A new group: its title and members (g from the conversations).
        case newGroup
        /// The open group's members, with the admins' actions (Ctrl-G in a group).
        case groupMembers
        /// The safety number of the open direct conversation (Ctrl-K in it).
        case safetyNumber
    }

    /// A one-line message over the key hints: an error says what to do.
    public struct Banner: Sendable, Equatable {
        public var text: String
        public var isError: Bool
        public init(_ text: String, isError: Bool) {
            self.text = text
            self.isError = isError
        }
    }

    public var screen: Screen = .login
    /// Where help, settings and compose return to.
    public var returnTo: Screen = .conversations
    public var username: String?
    public var connection = "offline"
    public var banner: Banner?
    /// A new message in another conversation, said on the banner's line until it expires or
    /// a key is pressed.
    public var notice: Notice?
    /// Ring the terminal bell with each notice (Settings; remembered per user, off by default).
    public var bellOnNewMessages = false
    /// When the current slow operation started (a spinner shows after 150 ms).
    public var busySince: ContinuousClock.Instant?
    public var now: ContinuousClock.Instant
    public var theme: Theme.Name

    public var login = LoginFeature.State()
    public var compose = ComposeFeature.State()
    public var account = AccountFeature.State()
    public var search = SearchFeature.State()

    public var conversations: [ConversationSummary] = []
    public var selectedConversation = 0
    /// The message requests (`Screen.requests`) and the selected one.
    public var requests: [ConversationSummary] = []
    public var selectedRequest = 0
    public var newPeer = TextInput(limit: 15)
    /// The new-group form (`Screen.newGroup`).
    public var newGroup = NewGroupForm()
    /// The open group, as last loaded (`Screen.groupMembers`), and the selected member.
    public var group: LocalGroup?
    public var selectedMember = 0
    /// The open group's member to remove, waiting for `y`.
    public var confirmingRemoval: String?
    /// The username being typed to add to the open group (`+` on its member list).
    public var newMember: TextInput?

    /// The safety number shown (`Screen.safetyNumber`).
    public var safetyNumber: SafetyNumberShown?

    /// A safety number as its screen shows it: whose, and its 60 digits in groups of five.
    public struct SafetyNumberShown: Sendable, Equatable {
        public var peer: String
        public var digits: String
        public init(peer: String, digits: String) {
            self.peer = peer
            self.digits = digits
        }
    }

    /// The open conversation.
    public var peer: String?
    public var messages: [LocalMessage] = []
    public var messageLimit = AppState.pageSize
    public var hasOlderMessages = false
    /// Older messages were asked for and have not arrived yet.
    public var loadingOlder = false
    /// Messages scrolled up from the newest: the history's bottom line shows the message this
    /// many before the newest (`bottomIndex`), whatever the length of the history.
    public var scroll = 0
    /// The terminal's height in rows (PgUp and PgDn move by about a screen of messages).
    public var screenRows = 24
    public var draft = TextInput()
    /// A question about the open conversation's peer waiting for its answer key.
    public var safetyPrompt: SafetyPrompt?
    /// The message selected in the history (its local id), which the message keys act on.
    public var selectedMessage: String?
    /// A message to select once it is loaded (a search result being opened).
    public var pendingSelection: String?
    /// A question about the selected message, or a path being typed.
    public var messagePrompt: MessagePrompt?
    /// What the draft is: a reply to a message or an edit of one (nil: a new message).
    public var draftPurpose: DraftPurpose?
    /// Files that go with the next message sent.
    public var attachments: [AttachmentFile] = []
    /// Uploads and downloads under way, by transfer id, in the order they started.
    public var transfers: [TransferProgress] = []
    /// Peer (lowercased) → when their typing notice expires.
    public var typing: [String: ContinuousClock.Instant] = [:]

    public var tweets: [TimelineEntry] = []
    public var timelineScroll = 0
    public var newTweets = 0

    /// The selected row of Settings: a theme, the bell (`bellSettingsRow`), then
    /// `AppState.accountItems`.
    public var settingsSelection = 0
    /// A screen asked for (by a link) before the login finished.
    public var pendingDestination: AppDestination?
    public var quit = false

    /// The questions before blocking or reporting the open conversation's peer.
    public enum SafetyPrompt: Sendable, Equatable {
        /// "Block them?": `y` blocks, any other key cancels.
        case confirmBlock
        /// "Report them for?": 1 spam, 2 abuse, 3 other; Esc cancels.
        case chooseReason
        /// "Encrypt this conversation?": `y` turns encryption on, any other key cancels.
        case confirmEncrypt
    }

    /// What a message key is waiting for: an emoji, a yes, or a path (`pathInput`).
    public enum MessagePrompt: Sendable, Equatable {
        /// "React with": 1–6 pick from `AppState.quickReactions`, any other emoji is itself.
        case react(messageId: String)
        /// "Unsend this message?": `y` unsends, any other key cancels.
        case confirmUnsend(messageId: String)
        /// "Attach file:" a path; Enter adds it to `attachments`.
        case attachPath(TextInput)
        /// "Save to:" a path, or empty for the download cache.
        case savePath(messageId: String, TextInput)
    }

    /// What the draft is for, besides a new message.
    public enum DraftPurpose: Sendable, Equatable {
        case reply(messageId: String)
        case edit(messageId: String)
    }

    /// The reactions the digits 1–6 stand for.
    public static let quickReactions = ["👍", "❤️", "😂", "😮", "😢", "🙏"]
    /// How long a sent message may be edited.
    public static let editWindowMilliseconds: Int64 = Validation.editWindow.milliseconds

    /// A notice of a new message: its line, and when it goes.
    public struct Notice: Sendable, Equatable {
        public var text: String
        public var until: ContinuousClock.Instant
        public init(_ text: String, until: ContinuousClock.Instant) {
            self.text = text
            self.until = until
        }
    }

    /// How long a notice shows when no key is pressed.
    public static let noticeDuration: Duration = .seconds(5)

    /// The row of Settings that turns the bell on and off, under the themes.
    public static let bellSettingsRow = Theme.Name.allCases.count

    /// The account rows of Settings, under the bell.
    public static let accountItems: [(title: String, page: AccountFeature.Page)] = [
        ("Sessions", .sessions), ("Change password", .password), ("Delete account", .delete),
    ]

    /// Messages loaded per page of a conversation.
    public static let pageSize = 30
    /// Messages added to the loaded history each time the reader nears its oldest.
    public static let olderStep = 100

    /// The loaded message at the bottom of the history view.
    public var bottomIndex: Int { max(messages.count - 1 - scroll, 0) }

    /// Messages PgUp and PgDn move by: fewer than a screen holds (a message takes two rows at
    /// least), so paging shows every message.
    public var pageStep: Int { max(1, (screenRows - 5) / 2 - 1) }

    public init(now: ContinuousClock.Instant, theme: Theme.Name = .dark) {
        self.now = now
        self.theme = theme
    }

    /// Whether a spinner shows: an operation has run for 150 ms or more.
    public var showsSpinner: Bool {
        guard let busySince else { return false }
        return now - busySince >= .milliseconds(150)
    }

    /// The message with this id (local or server), if loaded.
    public func message(_ id: String?) -> LocalMessage? {
        guard let id else { return nil }
        return messages.first { $0.isNamed(id) }
    }

    /// Whether the draft is an edit of a sent message.
    public var isEditing: Bool {
        if case .edit = draftPurpose { return true }
        return false
    }

    /// The new-group form: a title, and members picked from the people this user may message.
    public struct NewGroupForm: Sendable, Equatable {
        public var title = TextInput(limit: 80)
        /// Who may be picked: the direct conversations' peers and the followers.
        public var candidates: [String] = []
        public var picked: [String] = []
        public var selected = 0
        /// Keys go to the member list (else to the title).
        public var choosingMembers = false
        public init() {}
    }

    /// How the open conversation shows: the peer, or a group's title.
    public var conversationTitle: String? {
        guard let peer else { return nil }
        return conversations.first { $0.peerName == peer && $0.isGroup }?.shownName ?? peer
    }

    /// Whether the open conversation is encrypted (as its row in the list says).
    public var conversationEncrypted: Bool {
        guard let peer = peer?.lowercased() else { return false }
        return conversations.first { $0.id == peer }?.encrypted == true
    }

    /// Peers typing to this user now.
    public var typingPeers: [String] { typing.filter { $0.value > now }.keys.sorted() }
}
