import ChirpClient
import ChirpModels
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
                // What the user typed must not vanish with the local data: one more drain first.
                if let session = holder.get() { _ = try? await session.drainOutbox() }
                try await manager.logout()
                holder.set(nil)
            },
            conversations: { refresh in
                // Conversations, latest first, then followers not yet written to (they can be).
                let session = try holder.require()
                if refresh, let rows = try? await session.conversations(refresh: true) { return rows }
                return try await session.conversations(refresh: false)
            },
            messages: { peer, limit, refresh in
                let session = try holder.require()
                if refresh, let page = try? await session.messages(with: peer, limit: limit, refresh: true) { return (page.items, page.hasOlder) }
                let page = try await session.messages(with: peer, limit: limit, refresh: false)
                return (page.items, page.hasOlder)
            },
            send: { peer, text in _ = try await holder.require().enqueue(text, to: peer) },
            retry: { id in _ = try await holder.require().retry(id) },
            markRead: { peer in try? await holder.get()?.markRead(peer) },
            typing: { peer in await holder.get()?.typing(to: peer) },
            timeline: {
                let session = try holder.require()
                if let rows = try? await session.timeline(limit: 100, refresh: true) { return rows }
                return try await session.timeline(limit: 100, refresh: false)
            },
            tweet: { text in _ = try await holder.require().tweet(text) },
            updates: {
                AsyncStream { continuation in
                    guard let session = holder.get() else { return continuation.finish() }
                    // What the ledger writes (a send acknowledged or refused, a refresh) …
                    let changes = Task {
                        for await change in session.changes() { continuation.yield(.changed(change)) }
                    }
                    // … and what the server sends, with the connection's state. Going live
                    // drains the outbox (the session does that: back online).
                    let task = Task {
                        await session.sync.run(
                            onEvent: { continuation.yield(.event($0)) },
                            onState: { state in
                                switch state {
                                case .live: continuation.yield(.connection("live"))
                                case .connecting: continuation.yield(.connection("connecting"))
                                case .polling: continuation.yield(.connection("polling"))
                                case .reconnecting: continuation.yield(.connection("offline, retrying"))
                                }
                            })
                        changes.cancel()
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in
                        task.cancel()
                        changes.cancel()
                    }
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
