import ChirpClient
import ChirpModels
import Foundation
import Synchronization

extension AppClient {
    /// The app on the assembled client (`ChirpClientApp`): start-up, login and register run
    /// its `Initiator` steps (database → session → log reporter → live sync); live events come
    /// from its one `LiveSync`.
    public static func live(app: ChirpClientApp) -> AppClient {
        let holder = SessionHolder()
        var client = core(app: app, holder: holder)
        client.block = { username in try await holder.require().block(username) }
        client.turnOnEncryption = { peer in
            let session = try holder.require()
            if let id = ConversationKey.groupId(of: peer) {
                try await session.turnOnEncryption(group: id)
            } else {
                try await session.turnOnEncryption(peer: peer)
            }
        }
        client.safetyNumber = { peer in try await holder.require().safetyNumber(with: peer).formatted }
        client.markConversation = { peer, mark in
            let session = try holder.require()
            switch mark {
            case .pin: try await session.pin(peer)
            case .unpin: try await session.unpin(peer)
            case .mute: try await session.mute(peer)
            case .unmute: try await session.unmute(peer)
            }
        }
        client.requests = { refresh in
            let session = try holder.require()
            if refresh, let rows = try? await session.requests(refresh: true) { return rows }
            return try await session.requests(refresh: false)
        }
        client.answerRequest = { peer, accept in
            let session = try holder.require()
            if accept { try await session.accept(peer) } else { try await session.decline(peer) }
        }
        client.createGroup = { title, members in try await holder.require().createGroup(title, members: members).key }
        client.group = { id, refresh in try await holder.require().group(id, refresh: refresh) }
        client.changeGroup = { id, username, change in
            let session = try holder.require()
            switch change {
            case .add: try await session.addMember(username, to: id)
            case .remove: try await session.removeMember(username, from: id)
            case .makeAdmin: try await session.setAdmin(username, in: id)
            case .revokeAdmin: try await session.setAdmin(username, in: id, false)
            case .leave: try await session.leaveGroup(id)
            }
        }
        client.report = { username, reason in try await holder.require().report(username, reason: reason) }
        client.sessions = { try await holder.require().sessions() }
        client.endSession = { id in try await holder.require().endSession(id) }
        client.changePassword = { current, new in try await holder.require().changePassword(current: current, new: new)
        }
        client.inspectFile = { path in try AttachmentFile.inspect(path: path) }
        client.download = { media, destination in
            // A folder typed at the prompt gets the file under its own name (never replaced).
            var target = destination
            var isFolder: ObjCBool = false
            if let folder = destination, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
                isFolder.boolValue
            {
                target = folder.appendingPathComponent(media.displayName)
            }
            return try await holder.require().download(media, to: target)
        }
        client.react = { peer, id, emoji, remove in
            try await holder.require().react(emoji, to: id, with: peer, remove: remove)
        }
        client.edit = { peer, id, text in try await holder.require().edit(id, with: peer, text: text) }
        client.unsend = { peer, id in try await holder.require().unsend(id, with: peer) }
        client.search = { query, peer in try await holder.require().searchMessages(query, peer: peer, limit: 50).items }
        client.refusedActions = { holder.get()?.takeRefusedActions() ?? [] }
        client.mutedConversations = { try await holder.require().mutedConversations() }
        client.loadBell = { holder.get()?.context.setting("bell") == "on" }
        client.saveBell = { on in try? holder.get()?.context.setSetting("bell", to: on ? "on" : nil) }
        client.deleteAccount = { password in
            try await app.deleteAccount(password: password)
            holder.set(nil)
        }
        return client
    }

    /// Every closure but the safety and account ones (set by `live`).
    private static func core(app: ChirpClientApp, holder: SessionHolder) -> AppClient {
        @Sendable func started(_ report: StartupReport) throws -> String? {
            holder.set(report.session)
            // Without a session the failure is the banner; after it, it is in the error reports.
            if let failure = report.failure, report.session == nil { throw failure }
            return report.session?.username
        }
        return AppClient(
            restore: { try started(await app.start(sync: .live)) },
            login: { username, password in
                try started(try await app.login(username, password: password, sync: .live)) ?? username
            },
            register: { username, password in
                try started(try await app.register(username, password: password, sync: .live)) ?? username
            },
            logout: {
                // What the user typed must not vanish with the local data: one more drain first.
                if let session = holder.get() { _ = try? await session.drainOutbox() }
                try await app.logout()
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
                if refresh, let page = try? await session.messages(with: peer, limit: limit, refresh: true) {
                    return (page.items, page.hasOlder)
                }
                let page = try await session.messages(with: peer, limit: limit, refresh: false)
                return (page.items, page.hasOlder)
            },
            send: { peer, message in
                _ = try await holder.require().enqueue(
                    message.text, to: peer, attachments: message.attachments, replyTo: message.replyTo)
            },
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
                    // What the server sends, with the connection's state, from the app's one live
                    // sync (going live drains the outbox: the session does that) …
                    let listener = UpdatesListener(continuation)
                    app.liveSync.add(listener)
                    // … what the ledger writes (a send acknowledged or refused, a refresh) …
                    let changes = Task {
                        guard let session = holder.get() else { return }
                        for await change in session.changes() { continuation.yield(.changed(change)) }
                    }
                    // … and how far attachments have moved.
                    let transfers = Task {
                        guard let session = holder.get() else { return }
                        for await transfer in session.mediaTransfers() {
                            continuation.yield(.transfer(TransferProgress(transfer)))
                        }
                    }
                    continuation.onTermination = { _ in
                        app.liveSync.remove(listener)
                        changes.cancel()
                        transfers.cancel()
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

extension TransferProgress {
    /// The kit's progress of one upload or download.
    init(_ transfer: MediaTransfer) {
        let failure: String? = if case .failed(let reason) = transfer.state { reason } else { nil }
        let finished = transfer.state == .finished
        let total = transfer.total ?? max(transfer.bytesDone, 1)
        switch transfer.subject {
        case .upload(let messageId, let index, let clientMediaId):
            self.init(
                id: clientMediaId, filename: "", sent: finished ? total : transfer.bytesDone, total: total,
                isUpload: true,
                messageId: messageId, index: index, failure: failure)
        case .download(let mediaId):
            self.init(
                id: mediaId, filename: "", sent: finished ? total : transfer.bytesDone, total: total, isUpload: false,
                failure: failure)
        }
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

/// Passes the live sync's events and connection changes to the app's update stream.
final class UpdatesListener: LiveSyncListener {
    private let continuation: AsyncStream<AppClient.SyncUpdate>.Continuation

    init(_ continuation: AsyncStream<AppClient.SyncUpdate>.Continuation) {
        self.continuation = continuation
    }

    func eventApplied(_ event: Event) {
        continuation.yield(.event(event))
    }

    func connectionChanged(_ state: SyncEngine.ConnectionState) {
        switch state {
        case .live: continuation.yield(.connection("live"))
        case .connecting: continuation.yield(.connection("connecting"))
        case .polling: continuation.yield(.connection("polling"))
        case .reconnecting: continuation.yield(.connection("offline, retrying"))
        }
    }
}
