import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `PEER/ID`: a message of the conversation with PEER (a user, or `g:ID`), by the `#ID`
/// that `chirp messages` shows (its server id), its client id or its local id; with
/// `--group ID`, the bare `ID` (`in(_:)`).
struct MessageReference: ExpressibleByArgument {
    var peer: String
    var id: String

    init(peer: String, id: String) {
        self.peer = peer
        self.id = id
    }

    init?(argument: String) {
        guard let slash = argument.firstIndex(of: "/") else {
            // A bare ID: the conversation comes from --group.
            id = argument.trimmingCharacters(in: CharacterSet(charactersIn: "#"))
            peer = ""
            guard !id.isEmpty else { return nil }
            return
        }
        peer = ConversationKey.typed(String(argument[..<slash]))
        id = String(argument[argument.index(after: slash)...]).trimmingCharacters(in: CharacterSet(charactersIn: "#"))
        guard !peer.isEmpty, !id.isEmpty else { return nil }
    }

    /// This reference in the group `option` names, if it names one; throws when neither says
    /// which conversation.
    func `in`(_ option: GroupOption) throws -> MessageReference {
        guard let key = option.key else {
            guard !peer.isEmpty else {
                throw CommandFailure("say whose message \(id) is: USER/\(id), or --group GROUP-ID \(id)")
            }
            return self
        }
        return MessageReference(peer: key, id: id)
    }

    /// The message's local id, refreshing the conversation once when it is not stored here.
    func localId(in session: UserSession) async throws -> String {
        if let found = try await session.localMessageId(id, with: peer) { return found }
        _ = try await session.messages(with: peer, limit: 100, refresh: true)
        if let found = try await session.localMessageId(id, with: peer) { return found }
        throw CommandFailure("no message \(id) with \(peer): chirp messages \(peer) shows each message's #ID")
    }
}

/// Queues an action through `body`, sends the outbox, and says what happened (`done`, or that
/// it is queued, or the server's refusal).
func runAction(_ client: ClientOptions, done: String, _ body: @escaping (UserSession) async throws -> Void) async throws
{
    let (_, (report, refusals)) = try await ClientRuntime(client).withSession { session in
        try await body(session)
        let report = try await session.drainOutbox()
        return (report, session.takeRefusedActions())
    }
    if let refusal = refusals.first { throw CommandFailure("refused: \(refusal)") }
    if report.stillPending > 0 {
        printLine("queued: \(done) once the server can be reached; chirp sync sends it")
    } else {
        printLine(done)
    }
}

/// `chirp react PEER/ID EMOJI [--remove]`.
struct ReactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "react", abstract: "React to a message with an emoji (or take it back).")

    @Argument(help: "The message: USER/ID (or with --group, ID), ID as chirp messages shows it (#ID).") var reference:
        MessageReference
    @OptionGroup var group: GroupOption
    @Argument(help: "One emoji.") var emoji: String
    @Flag(help: "Take your reaction back.") var remove = false
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let message = try reference.in(group)
        try await runAction(client, done: remove ? "removed \(emoji)" : "reacted \(emoji)") { session in
            try await session.react(
                emoji, to: try await message.localId(in: session), with: message.peer, remove: remove)
        }
    }
}

/// `chirp edit PEER/ID TEXT…`.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change the text of your message (within 15 minutes).")

    @Argument(help: "The message: USER/ID (or with --group, ID), ID as chirp messages shows it (#ID).") var reference:
        MessageReference
    @OptionGroup var group: GroupOption
    @Argument(parsing: .remaining, help: "The new text.") var words: [String]
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let text = words.joined(separator: " ")
        let message = try reference.in(group)
        try await runAction(client, done: "edited: \(text)") { session in
            try await session.edit(try await message.localId(in: session), with: message.peer, text: text)
        }
    }
}

/// `chirp unsend PEER/ID`.
struct UnsendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsend", abstract: "Unsend your message, for both of you.")

    @Argument(help: "The message: USER/ID (or with --group, ID), ID as chirp messages shows it (#ID).") var reference:
        MessageReference
    @OptionGroup var group: GroupOption
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let message = try reference.in(group)
        try await runAction(client, done: "unsent") { session in
            try await session.unsend(try await message.localId(in: session), with: message.peer)
        }
    }
}

/// `chirp search WORDS… [--with USER]`: from the server, newest first, then this device's
/// decrypted copies of encrypted conversations (which the server cannot search).
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find your messages holding every word (case and accents ignored).")

    @Argument(parsing: .remaining, help: "The words to find.") var words: [String]
    @Option(
        name: .customLong("with"), help: "Only the conversation with this user (or g:ID, that group).",
        transform: ConversationKey.typed)
    var peer: String?
    @OptionGroup var page: PageLimitOptions
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    /// The JSON form: the server's page, and the matches among this device's decrypted copies.
    struct Found: Encodable {
        var items: [Message]
        var nextCursor: String?
        var encrypted: [LocalMessage]
    }

    func run() async throws {
        let query = words.joined(separator: " ")
        let (_, (found, local)) = try await ClientRuntime(client).withConnectedSession { session in
            (
                try await session.searchMessages(query, peer: peer, limit: page.limit),
                try await session.searchLocally(query, peer: peer, limit: page.limit)
            )
        }
        try output.emit(Found(items: found.items, nextCursor: found.nextCursor, encrypted: local)) {
            found.items.isEmpty && local.isEmpty
                ? ["no messages match \(query)"]
                : found.items.map { message in
                    "\(message.createdAt.rfc3339) \(message.sender) → \(message.group.map { "group \($0)" } ?? message.recipient): \(message.text)  #\(message.id)"
                }
                    + local.map { message in
                        "\(message.createdAt) \(message.sender) → \(message.group.map { "group \($0)" } ?? message.recipient): 🔒 \(message.text)"
                            + (message.serverId.map { "  #\($0)" } ?? "")
                    }
        }
    }
}
