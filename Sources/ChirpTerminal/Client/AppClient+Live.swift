import ChirpClient
import ChirpModels
import ChirpPersistence
import Foundation
import Synchronization

extension AppClient {
    /// The app on real accounts, local databases and a live sync engine.
    public static func live(manager: AccountManager) -> AppClient {
        let holder = SessionHolder()
        return AppClient(
            restore: {
                guard let session = try? manager.currentSession() else { return nil }
                holder.set(session)
                return session.username
            },
            login: { username, password in
                let session = try await manager.login(username, password: password)
                holder.set(session)
                return session.username
            },
            register: { username, password in
                let session = try await manager.register(username, password: password)
                holder.set(session)
                return session.username
            },
            logout: {
                if let session = holder.get() { _ = try? await session.outbox.flush() }
                try await manager.logout()
                holder.set(nil)
            },
            conversations: { refresh in
                // Conversations, latest first, then followers not yet written to (they can be).
                let session = try holder.require()
                if refresh {
                    try? await session.refreshConversations()
                    try? await session.refreshFollows(.followers, of: session.username)
                }
                let conversations = try await session.database.conversations.fetch(ConversationSummary.newestFirst)
                let known = Set(conversations.map(\.id))
                let followers = try await session.database.follows.fetch(FollowEntry.list("followers", of: session.username))
                return conversations + followers.filter { !known.contains($0.username.lowercased()) }.map(ConversationSummary.init(follower:))
            },
            messages: { peer, limit, refresh in
                let session = try holder.require()
                if refresh { try? await session.refreshMessages(with: peer, limit: min(limit, 100)) }
                let rows = try await session.database.messages(with: peer, limit: limit + 1)
                return (Array(rows.suffix(limit)), rows.count > limit)
            },
            send: { peer, text in _ = try await holder.require().send(text, to: peer) },
            retry: { id in _ = try await holder.require().outbox.retry(id) },
            markRead: { peer in try? await holder.get()?.markRead(peer) },
            typing: { peer in await holder.get()?.typingSender.keystroke(to: peer) },
            timeline: {
                let session = try holder.require()
                try? await session.refreshTimeline()
                return try await session.database.timeline.fetch(TimelineEntry.newestFirst.limit(100))
            },
            tweet: { text in _ = try await holder.require().tweet(text) },
            updates: {
                AsyncStream { continuation in
                    guard let session = holder.get() else { return continuation.finish() }
                    let task = Task {
                        await session.sync.run(
                            onEvent: { continuation.yield(.event($0)) },
                            onState: { state in
                                switch state {
                                case .live:
                                    continuation.yield(.connection("live"))
                                    // Back online: what was queued goes out now, without holding up the stream.
                                    Task { _ = try? await session.outbox.flush() }
                                case .connecting: continuation.yield(.connection("connecting"))
                                case .polling: continuation.yield(.connection("polling"))
                                case .reconnecting: continuation.yield(.connection("offline, retrying"))
                                }
                            })
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            },
            saveTheme: { name in try? holder.get()?.context.setSetting("theme", to: name.rawValue) },
            now: { .now },
            ticks: {
                AsyncStream { continuation in
                    let task = Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(100))
                            continuation.yield(.now)
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            })
    }
}

/// The session the live client works on (set by restore, login, register; cleared by logout).
final class SessionHolder: Sendable {
    private let session = Mutex<UserSession?>(nil)
    func set(_ value: UserSession?) { session.withLock { $0 = value } }
    func get() -> UserSession? { session.withLock { $0 } }
    func require() throws -> UserSession {
        guard let session = get() else { throw AccountError.notLoggedIn }
        return session
    }
}
