import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp send USER [--attach PATH]… TEXT…` (or `chirp send --group ID TEXT…`): stored first, then sent (attachments uploaded
/// first, with progress). When the server cannot be reached the message stays queued (exit 0)
/// and goes out with the next command that reaches the server.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a direct or group message (queued if the server cannot be reached).")

    @Argument(help: "Who to send it to (with --group, the first word of the message).") var username: String
    @Option(
        name: .customLong("reply-to"), help: "The #ID (as chirp messages USER shows it) of the message this answers.")
    var replyTo: String?
    @Option(
        name: .customLong("attach"),
        help: ArgumentHelp("A file to attach (repeatable, at most 4; before the text).", valueName: "path"))
    var attachments: [String] = []
    @Argument(parsing: .remaining, help: "The message (may be empty with attachments).") var words: [String] = []
    @OptionGroup var group: GroupOption
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        // With --group the argument taken as the user is the message's first word.
        let key = group.key ?? ConversationKey.typed(username)
        let text = ((group.key == nil ? [] : [username]) + words).joined(separator: " ")
        let username = key
        let files = attachments.map { URL(fileURLWithPath: $0).standardizedFileURL }
        let (_, (message, report)) = try await ClientRuntime(client).withSession { session in
            var reply: String?
            if let replyTo { reply = try await MessageReference(peer: username, id: replyTo).localId(in: session) }
            guard !files.isEmpty else { return try await session.send(text, to: username, replyTo: reply) }
            let progress = TransferProgress.show(session.mediaTransfers())
            defer { progress.cancel() }
            return try await session.send(text, to: username, attachments: files, replyTo: reply)
        }
        switch message.state {
        case .failed:
            throw CommandFailure(
                "not sent: \(message.failure ?? "refused by the server") (fix it, then chirp retry \(message.id))")
        case .pending:
            let reason =
                report.blockedBy.map { $0.status == nil ? "server unreachable: \($0)" : "server busy: \($0)" }
                ?? "waiting"
            try output.emit(message) {
                ["queued: \(message.text) → \(message.destination) (\(reason)); chirp sync sends it"]
            }
        default:
            try output.emit(message) { ["sent: \(message.text) → \(message.destination)"] }
        }
    }
}

/// `chirp retry ID`: puts a failed message back in the outbox and sends it.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Send a failed message again (its id is shown by chirp messages).")

    @Argument(help: "The failed message's id (sender/clientMessageId).") var id: String
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let (_, report) = try await ClientRuntime(client).withSession { session in try await session.retry(id) }
        if let failed = report.failed.first(where: { $0.id == id }) {
            throw CommandFailure("not sent again: \(failed.failure ?? "refused")")
        }
        printLine(
            report.sent.contains { $0.id == id }
                ? "sent" : "queued: the server cannot be reached now; chirp sync sends it")
    }
}

/// `chirp messages USER [--limit N]` (or `--group ID`): the conversation from the local database after a
/// refresh; the peer's messages are marked read.
struct MessagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messages", abstract: "Show a conversation (oldest first) and mark it read.")

    @Argument(help: "The other person (or --group ID).") var person: String?
    @OptionGroup var group: GroupOption
    @OptionGroup var page: PageLimitOptions
    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (person == nil) != (group.key == nil) else {
            throw ValidationError("name one conversation: a USER, or --group ID")
        }
    }

    func run() async throws {
        let username = group.key ?? person.map(ConversationKey.typed) ?? ""
        let (session, messages) = try await ClientRuntime(client).withConnectedSession { session in
            let messages = try await session.messages(with: username, limit: page.limit, refresh: true).items
            try await session.markRead(username)
            return messages
        }
        try output.emit(messages) {
            messages.isEmpty
                ? ["no messages with \(username) yet"]
                : messages.flatMap { MessageLine.lines($0, viewer: session.username) }
        }
    }
}

/// `chirp conversations`.
struct ConversationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conversations",
        abstract:
            "Your conversations, pinned ones first (📌), then latest first, with unread counts; muted ones marked (🔕).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let (_, rows) = try await ClientRuntime(client).withConnectedSession { session in
            try await session.conversations(refresh: true, includingFollowers: false)
        }
        try output.emit(rows) {
            rows.isEmpty ? ["no conversations yet: chirp send USER TEXT starts one"] : rows.map(Self.line)
        }
    }

    /// How a conversation (or a request) prints: its marks, the peer, the unread count and the
    /// last message.
    static func line(_ row: ConversationSummary) -> String {
        let unread = row.unreadCount > 0 ? " (\(row.unreadCount) unread)" : ""
        let marks = (row.pinned ? "📌 " : "") + (row.muted ? "🔕 " : "") + (row.encrypted ? "🔒 " : "")
        let name = row.groupId.map { "\(row.shownName) (--group \($0))" } ?? row.shownName
        guard row.hasMessages else { return "\(marks)\(name) — no messages yet" }
        return "\(marks)\(name)\(unread) — \(row.lastSender): \(row.lastText)"
    }
}

/// How a message prints: time, sender, text, and for one's own messages the delivery mark.
enum MessageLine {
    /// Then the marks of issue 23: `↪ #ID` before a reply's text, `(edited)`, `(message
    /// unsent)` or `(removed by the operators)`, the message's `#ID` (what `chirp react USER/ID` takes) and its reactions;
    /// then a line for each attachment. The text stays on its line: its own line breaks are
    /// printed escaped (`printLine`), so a message cannot pass for the lines after it.
    static func lines(_ message: LocalMessage, viewer: String) -> [String] {
        let reply = message.replyTo.map { "↪ #\($0) " } ?? ""
        let content =
            if message.deleted {
                "(\(message.tombstoneNote))"
            } else if let notice = message.verification?.notice {
                "🔒 (\(notice))"
            } else {
                reply + message.text + (message.editedAt == nil ? "" : " (edited)")
            }
        var base = "\(message.createdAt) \(message.sender): \(content)"
        base +=
            state(message, viewer: viewer) + (message.serverId.map { "  #\($0)" } ?? "")
            + (message.reactions.isEmpty
                ? "" : "  " + message.reactions.map { "\($0.emoji) \($0.count)" }.joined(separator: " "))
        return [base]
            + message.attachments.map { attachment in
                "    📎 \(attachment.name) (\(attachment.contentType), \(ByteCount.text(attachment.size)))"
                    + (attachment.mediaId.map { " — chirp media get \($0)" } ?? "")
            }
    }

    private static func state(_ message: LocalMessage, viewer: String) -> String {
        guard message.isOutgoing(for: viewer) else { return "" }
        if message.group != nil, message.serverId != nil, !message.deleted, message.readCount > 0 {
            return "  ✓✓ read by \(message.readCount)"
        }
        switch message.state {
        case .pending: return "  … pending"
        case .sent: return "  ✓ sent"
        case .delivered: return "  ✓✓ delivered"
        case .read: return "  ✓✓ read"
        case .failed: return "  ✗ failed: \(message.failure ?? "refused") (chirp retry \(message.id))"
        case .received: return ""
        }
    }
}
