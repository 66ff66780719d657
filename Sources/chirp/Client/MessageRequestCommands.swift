import ArgumentParser
import ChirpClient
import ChirpModels

/// `chirp requests`: the message requests waiting for your answer.
struct RequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests",
        abstract: "Message requests waiting for your answer (chirp accept USER or chirp decline USER).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (_, rows) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.requests(refresh: true)
        }
        try output.emit(rows) {
            rows.isEmpty
                ? ["no message requests (chirp settings --message-requests everyone lets anyone write to you)"]
                : rows.map(ConversationsCommand.line)
        }
    }
}

/// `chirp accept USER` and `chirp decline USER`: the answer is queued in the outbox (shown in
/// `chirp requests` and `chirp conversations` at once) and sent when the server can be
/// reached. When this device does not know the request yet, the requests are read once first.
protocol RequestAnswerCommand: AsyncParsableCommand {
    var username: String { get }
    var client: ClientOptions { get }
    /// What the command did, as in "accepted bob's request".
    static var done: String { get }
    /// The `UserSession` method that queues the answer.
    static var answer: @Sendable (UserSession) -> (String) async throws -> Void { get }
}

extension RequestAnswerCommand {
    func run() async throws {
        try await runConversationAction(
            client, done: "\(Self.done) \(ConversationKey.typed(username))'s request",
            peer: ConversationKey.typed(username), queue: Self.answer,
            refreshingWhen: { $0 is MessageRequestError }, refresh: { _ = try await $0.requests(refresh: true) })
    }
}

/// `chirp accept USER`.
struct AcceptCommand: RequestAnswerCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "Accept someone's message request: it becomes an ordinary conversation.")
    static let done = "accepted"
    static let answer: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.accept }

    @Argument(help: "Whose request: a USER, or g:ID for a group (chirp requests shows its id).") var username: String
    @OptionGroup var client: ClientOptions
}

/// `chirp decline USER`.
struct DeclineCommand: RequestAnswerCommand {
    static let configuration = CommandConfiguration(
        commandName: "decline",
        abstract: "Decline someone's message request: it leaves your lists (a later message is a new request).")
    static let done = "declined"
    static let answer: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.decline }

    @Argument(help: "Whose request: a USER, or g:ID for a group (chirp requests shows its id).") var username: String
    @OptionGroup var client: ClientOptions
}

/// `chirp settings [--message-requests everyone|followers]`: prints your settings, after
/// changing the ones given.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show your settings, or change who may start a conversation with you.")

    @Option(
        help:
            "Who may message you first: followers (people you follow or have messaged; the default) or everyone (others' messages arrive as requests)."
    )
    var messageRequests: MessageRequestPolicy?
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let policy = messageRequests
        let (_, settings) = try await ClientRuntime(client).withConnectedSession { session in
            if let policy { return try await session.setMessageRequests(policy) }
            return try await session.settings()
        }
        try output.emit(settings) {
            let who =
                settings.messageRequests == .everyone
                ? "everyone (messages from people you do not follow arrive as requests: chirp requests)"
                : "followers (people you follow or have messaged)"
            return ["message requests: \(who)"]
        }
    }
}

extension MessageRequestPolicy: ExpressibleByArgument {}
