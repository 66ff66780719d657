import ArgumentParser
import ChirpClient
import ChirpCommandSupport
import ChirpModels

/// `chirp pin USER`, `unpin`, `mute`, `unmute`: one command per mark, each queued in the
/// outbox (shown in `chirp conversations` at once) and sent when the server can be reached.
/// When this device does not have the conversation yet, the list is refreshed once first.
protocol ConversationMarkCommand: AsyncParsableCommand {
    var username: String { get }
    var client: ClientOptions { get }
    /// What the command did, as in "pinned bob".
    static var done: String { get }
    /// The `UserSession` method that queues the mark.
    static var mark: @Sendable (UserSession) -> (String) async throws -> Void { get }
}

extension ConversationMarkCommand {
    func run() async throws {
        try await runConversationAction(
            client, done: "\(Self.done) \(ConversationKey.typed(username))", peer: ConversationKey.typed(username),
            queue: Self.mark,
            refreshingWhen: { if case ConversationMarkError.noSuchConversation = $0 { true } else { false } },
            refresh: { _ = try await $0.conversations(refresh: true, includingFollowers: false) })
    }
}

/// Queues an action on the conversation with `peer` through `queue` (a pin, an answer to a
/// request; `runAction` sends it). When this device does not know the conversation yet
/// (`refreshingWhen` the kit's error), `refresh` reads it once and the action is queued again;
/// the kit's refusal to queue becomes the command's error.
func runConversationAction(
    _ client: ClientOptions, done: String, peer: String,
    queue: @escaping @Sendable (UserSession) -> (String) async throws -> Void,
    refreshingWhen unknown: @escaping @Sendable (any Error) -> Bool,
    refresh: @escaping @Sendable (UserSession) async throws -> Void
) async throws {
    try await runAction(client, done: done) { session in
        do {
            do {
                try await queue(session)(peer)
            } catch  where unknown(error) {
                try await refresh(session)
                try await queue(session)(peer)
            }
        } catch let error as ConversationMarkError {
            throw CommandFailure(error.description)
        } catch let error as MessageRequestError {
            throw CommandFailure(error.description)
        }
    }
}

/// `chirp pin USER`.
struct PinCommand: ConversationMarkCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Pin your conversation with someone: it comes first in your list (at most 10).")
    static let done = "pinned"
    static let mark: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.pin }

    @Argument(help: "Whose conversation: a USER, or g:ID for a group (chirp conversations shows its id).")
    var username: String
    @OptionGroup var client: ClientOptions
}

/// `chirp unpin USER`.
struct UnpinCommand: ConversationMarkCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpin", abstract: "Unpin your conversation with someone.")
    static let done = "unpinned"
    static let mark: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.unpin }

    @Argument(help: "Whose conversation: a USER, or g:ID for a group (chirp conversations shows its id).")
    var username: String
    @OptionGroup var client: ClientOptions
}

/// `chirp mute USER`.
struct MuteCommand: ConversationMarkCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute", abstract: "Mute your conversation with someone: unread messages still count, no alerts.")
    static let done = "muted"
    static let mark: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.mute }

    @Argument(help: "Whose conversation: a USER, or g:ID for a group (chirp conversations shows its id).")
    var username: String
    @OptionGroup var client: ClientOptions
}

/// `chirp unmute USER`.
struct UnmuteCommand: ConversationMarkCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmute", abstract: "Unmute your conversation with someone.")
    static let done = "unmuted"
    static let mark: @Sendable (UserSession) -> (String) async throws -> Void = { session in session.unmute }

    @Argument(help: "Whose conversation: a USER, or g:ID for a group (chirp conversations shows its id).")
    var username: String
    @OptionGroup var client: ClientOptions
}
