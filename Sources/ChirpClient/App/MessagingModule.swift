import ChirpModels
import ChirpModules
import Foundation

/// Direct messages: `chirp://conversations` and `chirp://conversation/:username?limit=N`.
public final class MessagingModule: Module, DestinationTextProvider {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .messaging

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        context.route("chirp://conversations") { _ in .conversations }
        context.route("chirp://conversation/:username") { match in
            .conversation(peer: match["username"] ?? "", limit: ClientDestination.limit(match))
        }
    }

    /// The conversation list, or one conversation's newest messages (oldest first).
    public func text(for destination: ClientDestination, in session: UserSession) async throws -> String {
        switch destination {
        case .conversation(let peer, let limit):
            let page = try await session.messages(with: peer, limit: limit, refresh: true)
            guard !page.items.isEmpty else { return "No messages with \(peer) yet." }
            return page.items.map { message -> String in
                let mark = message.isOutgoing(for: session.username) ? (message.state == .read ? "✓✓" : "✓") : " "
                return TerminalText.escaped("\(message.createdAt) \(message.sender): \(message.text) \(mark)")
            }.joined(separator: "\n")
        default:
            let rows = try await session.conversations(refresh: true)
            guard !rows.isEmpty else { return "No conversations yet." }
            return rows.map { row -> String in
                guard row.hasMessages else {
                    return TerminalText.escaped(
                        row.isGroup
                            ? "\(row.shownName): no messages yet" : "\(row.peerName): follows you; no messages yet")
                }
                let unread = row.unreadCount > 0 ? " (\(row.unreadCount) unread)" : ""
                return TerminalText.escaped("\(row.peerName)\(unread): \(row.lastSender): \(row.lastText)")
            }.joined(separator: "\n")
        }
    }
}
