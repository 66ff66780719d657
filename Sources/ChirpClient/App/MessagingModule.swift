import ChirpModels
import ChirpModules
import Foundation

/// Direct messages: `chirp://conversations` and `chirp://conversation/:username?limit=N`.
public final class MessagingModule: Module {
    /// The module's identifier.
    public static let identifier: ModuleIdentifier = .messaging

    /// Modules are created by the module manager.
    public init() {}

    /// Registers this module's routes.
    public func moduleDidLoad(_ context: ModuleContext) {
        let manager = context.manager
        try? context.router.register("chirp://conversations") { _ in
            let session = try await manager.resolve(.accounts, as: (any AccountService).self).session()
            let page = try await session.api.send(ChirpEndpoints.ListConversations())
            guard !page.items.isEmpty else { return "No conversations yet." }
            return page.items.map { conversation -> String in
                let unread = conversation.unreadCount > 0 ? " (\(conversation.unreadCount) unread)" : ""
                return "\(conversation.peer.username)\(unread): \(conversation.lastMessage.sender): \(conversation.lastMessage.text)"
            }.joined(separator: "\n")
        }
        try? context.router.register("chirp://conversation/:username") { match in
            let session = try await manager.resolve(.accounts, as: (any AccountService).self).session()
            let peer = match["username"]!
            let limit = match.query["limit"].flatMap(Int.init) ?? 20
            let page = try await session.api.send(ChirpEndpoints.ListMessages(with: peer, limit: min(max(limit, 1), 100)))
            guard !page.items.isEmpty else { return "No messages with \(peer) yet." }
            return page.items.map { message -> String in
                let mark = message.sender.lowercased() == session.user.username.lowercased() ? (message.readByRecipient ? "✓✓" : "✓") : " "
                return "\(message.createdAt.rfc3339) \(message.sender): \(message.text) \(mark)"
            }.joined(separator: "\n")
        }
    }
}
