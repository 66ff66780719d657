import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels
import Foundation

/// `chirp sync`: sends the outbox, applies every missed event, exits.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Send queued messages, catch up with events, and exit.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: OutputOptions

    struct Summary: Encodable {
        var sent: Int
        var failed: Int
        var queued: Int
        var events: Int
        var lastSeq: Int64
    }

    func run() async throws {
        let (session, (report, events)) = try await ClientRuntime(client).withSession { session in
            try await session.synchronize()
        }
        for failed in report.failed {
            printError(
                "message to \(failed.recipient) failed: \(failed.failure ?? "refused") (chirp retry \(failed.id))")
        }
        let summary = Summary(
            sent: report.sent.count, failed: report.failed.count, queued: report.stillPending, events: events,
            lastSeq: try await session.sync.lastSeq())
        try output.emit(summary) {
            [
                "synced: \(summary.sent) sent, \(summary.failed) failed, \(summary.queued) still queued, \(summary.events) new events"
            ]
        }
    }
}

/// `chirp watch`: prints events as they arrive until Ctrl-C, reconnecting on its own.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print events live (messages, reads, typing, follows, tweets) until Ctrl-C.")

    @OptionGroup var client: ClientOptions
    @Flag(help: "Print each event as one line of JSON (API.md's Event object).") var json = false
    @Flag(
        help: ArgumentHelp(
            "Print only what raises a notification: a new message from someone else in a conversation you have not muted.",
            discussion: "One line each, from now on; with --json, the push payload of API.md part 4."))
    var notify = false

    func run() async throws {
        let runtime = try ClientRuntime(client)
        let session = try await runtime.connectedSession()
        let json = self.json
        let me = session.username
        if notify {
            // What arrived before now is history, not news.
            try await session.sync.catchUp()
            let notices = MessageNotices(viewer: me)
            await session.sync.run(
                onEvent: { event in
                    let muted = (try? await session.mutedConversations()) ?? []
                    guard let notification = notices.notification(for: event, muted: muted) else { return }
                    printLine(json ? NotificationLine.json(notification) : NotificationLine.text(notification))
                },
                onState: { state in printError("watch: \(state)") })
            return
        }
        await session.sync.run(
            onEvent: { event in
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    if let data = try? encoder.encode(event) { printJSON(String(decoding: data, as: UTF8.self)) }
                } else {
                    printLine(EventLine.text(await session.withDecryptedText(event), viewer: me))
                }
            },
            onState: { state in printError("watch: \(state)") })
    }
}

/// How an event prints in `chirp watch`.
enum EventLine {
    static func text(_ event: Event, viewer: String) -> String {
        let seq = event.seq.map { "#\($0) " } ?? ""
        switch event.payload {
        case .messageCreated(let message):
            return "\(seq)message \(message.sender) → \(to(message.recipient, group: message.group)): \(message.text)"
        case .messageUpdated(let message):
            return
                "\(seq)updated \(message.sender) → \(to(message.recipient, group: message.group)) #\(message.id): \(message.text)"
        case .messageDeleted(let notice):
            return "\(seq)unsent \(notice.sender) → \(to(notice.recipient, group: notice.group)) #\(notice.id)"
        case .messageRead(let receipt):
            if let group = receipt.group {
                return "\(seq)read \(receipt.reader) read group \(group) up to \(receipt.upTo)"
            }
            return "\(seq)read \(receipt.reader) read your messages up to \(receipt.upTo)"
        case .typing(let notice):
            return "typing \(notice.from) is typing…" + (notice.group.map { " in group \($0)" } ?? "")
        case .followCreated(let notice):
            return "\(seq)follow \(notice.follower.username) follows you"
        case .tweetCreated(let tweet):
            return "\(seq)tweet @\(tweet.author.username): \(tweet.text)"
        case .blockCreated(let notice):
            return "\(seq)block you blocked \(notice.username)"
        case .blockDeleted(let notice):
            return "\(seq)unblock you unblocked \(notice.username)"
        case .userDeleted(let notice):
            return "\(seq)deleted \(notice.username) deleted their account"
        case .conversationUpdated(let conversation):
            let marks = [conversation.pinned ? "pinned" : "unpinned", conversation.muted ? "muted" : "unmuted"]
            let with = conversation.group.map { "group \($0.id) (\($0.title))" } ?? conversation.peer.username
            return "\(seq)conversation with \(with): \(marks.joined(separator: ", "))"
        case .groupCreated(let group):
            return
                "\(seq)group you are in group \(group.id) (\(group.title)): \(group.members.map(\.user.username).joined(separator: ", "))"
        case .groupUpdated(let group):
            return
                "\(seq)group group \(group.id) is now \(group.title): \(group.members.map(\.user.username).joined(separator: ", "))"
        case .groupRemoved(let notice):
            return "\(seq)group you are no longer in group \(notice.group)"
        case .eventsPruned(let notice):
            return "\(seq)refresh events before \(notice.oldestSeq) were pruned: the lists were read again"
        case .deviceChanged(let notice):
            return "\(seq)devices \(notice.user) added, changed or removed a device"
        case .unknown:
            return "\(seq)\(event.type)"
        }
    }

    /// Where a message went: its recipient, or `group ID`.
    private static func to(_ recipient: String, group: String?) -> String { group.map { "group \($0)" } ?? recipient }
}

/// How a notification prints in `chirp watch --notify`.
enum NotificationLine {
    /// `ann: hello` for a direct message, `ann in group 7: hello` for a group's.
    static func text(_ notification: PushNotification) -> String {
        let place = notification.conversation.group.map { " in group \($0)" } ?? ""
        return "\(notification.sender)\(place): \(notification.text ?? "New message")"
    }

    /// The push payload as one line of JSON.
    static func json(_ notification: PushNotification) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(notification)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
