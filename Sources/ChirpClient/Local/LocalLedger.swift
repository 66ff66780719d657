import ChirpDataCenter
import ChirpModels
import ChirpPersistence
import Foundation
import Synchronization

/// The one writer of a user's local database in this process: messages, the conversation
/// list, follow lists, the timeline and the sync cursor. The outbox, the sync engine and the
/// data center's refreshes all write here and nowhere else.
///
/// Every change is a read, merge and write run one at a time (`WriteSerializer`), and merges
/// only move forward: a message's state never goes back (`DeliveryState.advanced(to:)`), a
/// conversation row never goes back to an older last message. So replays, late answers and a
/// refresh whose reply was read from the server before an event arrived are all harmless.
/// After each write the ledger publishes what changed (`changes`).
final class LocalLedger: Sendable {
    let database: ClientDatabase
    /// The user whose data this is.
    let username: String
    /// What changed, for `UserSession.changes()`.
    let changes = ChangeFeed()
    /// Opens the envelopes of encrypted messages before they are stored (nil: they are stored
    /// as could-not-be-verified).
    let crypto: MessageCrypto?
    private let serializer = WriteSerializer()
    private let lastOrder = Mutex<Int64>(0)

    /// A ledger over `database` for `username`.
    init(database: ClientDatabase, username: String, crypto: MessageCrypto? = nil) {
        self.database = database
        self.username = username
        self.crypto = crypto
    }

    /// Makes the ledger the writer of every model the data center refreshes.
    func register(in center: DataCenter) {
        center.register(
            RecordWriter<HistoryPage> { records, _ in for page in records { try await self.merge(history: page) } })
        center.register(
            RecordWriter<ConversationSummary> { records, scope in
                try await self.merge(conversations: records, replacing: scope)
            })
        center.register(
            RecordWriter<FollowEntry> { records, scope in try await self.replaceFollows(records, in: scope) })
        center.register(RecordWriter<TimelineEntry> { records, _ in try await self.add(timeline: records) })
    }

    // MARK: messages

    /// Stores a new outgoing message as `pending` and returns it.
    func addPending(
        to recipient: String, text: String, clientMessageId: String = UUID().uuidString, attachments files: [URL] = [],
        replyTo: String? = nil
    ) async throws -> LocalMessage {
        let messageId = LocalMessage.key(sender: username, clientMessageId: clientMessageId)
        // Each file named in the error when it cannot be read: with several, the user sees which.
        let attachments = try files.enumerated().map {
            try PendingAttachment.describe($1, messageId: messageId, position: $0)
        }
        return try await write { [self] in
            let message = LocalMessage(
                pendingFrom: username, to: recipient, clientMessageId: clientMessageId, text: text, order: nextOrder(),
                at: .now(),
                attachments: attachments.map(\.display), replyTo: replyTo)
            // The files first: a pending message is never seen without its attachments.
            if !attachments.isEmpty { try await database.attachments.save(attachments) }
            try await database.messages.save([message])
            return (message, [.messages(peer: message.peer)])
        }
    }

    /// Records a message the server has (from a send's reply or, `fromStream`, an event),
    /// moving the stored row's state forward to `state` (or to what the message itself says).
    /// A message from the stream joins the conversation's stream stretch (`HistoryStretches`).
    /// Returns whether the message was new here. `opened` is what the sender's own device
    /// sealed (otherwise the envelope is opened here).
    @discardableResult
    func record(
        _ message: Message, state: DeliveryState? = nil, fromStream: Bool = false, opened: OpenedEnvelope? = nil
    ) async throws -> Bool {
        let opened = await opening(message, given: opened)
        return try await write { [self] in
            var incoming = LocalMessage(message, viewer: username, opened: opened)
            if let state { incoming.state = state }
            let stored = try await database.messages.fetch(id: incoming.id)
            let merged = try await applyingEarlyTombstones(to: [
                stored.map { $0.merged(with: incoming, keepingContent: true) } ?? incoming
            ])[0]
            var changes: [LocalChange] = []
            if merged != stored {
                try await database.messages.save([merged])
                changes.append(.messages(peer: merged.peer))
            }
            if fromStream, let id = Int64(message.id) {
                try await updateHistory(of: merged.peer) { $0.add(streamed: id) }
            }
            let unread: Set<String> = message.readByRecipient ? [] : [merged.id]
            if try await updateConversations(with: [merged], unread: unread) { changes.append(.conversations) }
            return (stored == nil, changes)
        }
    }

    /// A refreshed page of a conversation, merged row by row: the server's copy updates each
    /// stored message, but a state only moves forward, so a page read before a `message.read`
    /// event and written after it leaves the message `read`. Rows the page does not list (such
    /// as pending ones) stay. Says nothing about which stretches are whole.
    func merge(page records: [LocalMessage]) async throws {
        guard !records.isEmpty else { return }
        try await write { [self] in ((), try await mergeRows(records, unread: [])) }
    }

    /// Merges `records` (see `merge(page:)`); `unread` are the ids of those the server
    /// counts unread. Runs inside a write job.
    func mergeRows(_ records: [LocalMessage], unread: Set<String>) async throws -> [LocalChange] {
        guard !records.isEmpty else { return [] }
        let stored = try await database.messages.fetch(RecordQuery().filter("id", in: records.map { .text($0.id) }))
        let byId = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        try await dropRenamedCopies(of: records)
        let merged = try await applyingEarlyTombstones(
            to: records.map { record in byId[record.id].map { $0.merged(with: record) } ?? record })
        let changed = merged.filter { byId[$0.id] != $0 }
        var changes: [LocalChange] = []
        if !changed.isEmpty {
            try await database.messages.save(changed)
            changes += Set(changed.map(\.peer)).sorted().map { .messages(peer: $0) }
        }
        if try await updateConversations(with: merged, unread: unread) { changes.append(.conversations) }
        return changes
    }

    /// Deletes the stored rows that hold one of `records`' server ids under another id: a
    /// group message whose sender deleted their account comes back as `deleted-ID`'s, and
    /// replaces the copy stored under the old name (`forgetDeletedUser`). Runs inside a write job.
    private func dropRenamedCopies(of records: [LocalMessage]) async throws {
        let ids = records.compactMap(\.serverId)
        guard !ids.isEmpty else { return }
        let incoming = Set(records.map(\.id))
        let renamed = try await database.messages.fetch(RecordQuery().filter("serverId", in: ids.map { .text($0) }))
            .filter { !incoming.contains($0.id) }
        if !renamed.isEmpty { try await database.messages.delete(ids: renamed.map(\.id)) }
    }

    /// Marks a pending message failed with the server's reason.
    func markFailed(_ id: String, reason: String) async throws {
        try await write { [self] in
            guard var stored = try await database.messages.fetch(id: id), stored.state == .pending else {
                return ((), [])
            }
            stored.state = .failed
            stored.failure = reason
            try await database.messages.save([stored])
            return ((), [.messages(peer: stored.peer)])
        }
    }

    /// Puts a failed message back in the outbox. Throws if there is no such failed message.
    func requeue(_ id: String) async throws -> LocalMessage {
        try await write { [self] in
            guard var stored = try await database.messages.fetch(id: id), stored.state == .failed else {
                throw OutboxError.notFailed(id)
            }
            stored.state = .pending
            stored.failure = nil
            try await database.messages.save([stored])
            return (stored, [.messages(peer: stored.peer)])
        }
    }

    /// `reader` read this user's messages up to server id `upTo`: they become `read`.
    func markRead(by reader: String, upTo: String) async throws {
        guard let limit = Int64(upTo) else { return }
        try await write { [self] in
            let rows = try await database.messages.fetch(
                RecordQuery().filter("peer", .equal, .text(reader.lowercased())).filter(
                    "sortKey", .lessOrEqual, .integer(limit)))
            let changed = rows.filter { $0.isOutgoing(for: username) && $0.state != .read && $0.serverId != nil }.map {
                row -> LocalMessage in
                var row = row
                row.state = .read
                return row
            }
            guard !changed.isEmpty else { return ((), []) }
            try await database.messages.save(changed)
            return ((), [.messages(peer: reader.lowercased())])
        }
    }

    /// `username` deleted their account (a `user.deleted` event): the conversation under that
    /// name leaves the list with its messages (the name is free for someone else now), their
    /// group messages become tombstones, and they leave this user's follow lists. The server keeps the conversation under `deleted-ID`
    /// (this user's messages whole, theirs as tombstones), which the next refresh brings in.
    func forgetDeletedUser(_ username: String) async throws {
        let peer = username.lowercased()
        try await write { [self] in
            try await database.conversations.delete(ids: [peer])
            try await database.histories.delete(ids: [peer])
            try await database.messages.delete(matching: RecordQuery().filter("peer", .equal, .text(peer)))
            // Their group messages are tombstones now, under `deleted-ID` (which a page brings,
            // replacing these rows: `dropRenamedCopies`).
            let theirs = try await database.messages.fetch(RecordQuery().filter("sender", .equal, .text(username)))
                .filter { $0.group != nil && !$0.deleted }.map { $0.unsent() }
            if !theirs.isEmpty { try await database.messages.save(theirs) }
            let groups = Set(theirs.map(\.peer)).sorted().map { LocalChange.messages(peer: $0) }
            try await database.follows.delete(matching: RecordQuery().filter("username", .equal, .text(username)))
            let me = self.username.lowercased()
            return (
                (),
                [
                    .conversations, .messages(peer: peer), .follows(owner: me, relation: "followers"),
                    .follows(owner: me, relation: "following"),
                ]
                    + groups
            )
        }
    }

    // MARK: follows, timeline, cursor

    /// A refreshed follow list: replaces the stored list `scope` selects.
    func replaceFollows(_ records: [FollowEntry], in scope: RecordQuery?) async throws {
        try await write { [self] in
            if let scope {
                try await database.follows.replace(matching: scope, with: records)
            } else {
                try await database.follows.save(records)
            }
            let lists = Set(records.map { "\($0.owner)\n\($0.relation)" })
            return (
                (),
                lists.sorted().map { key in
                    let parts = key.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    return .follows(owner: parts[0], relation: parts[1])
                }
            )
        }
    }

    /// `follower` now follows this user (from a `follow.created` event): first in the list.
    func addFollower(_ follower: User, seq: Int64?) async throws {
        try await write { [self] in
            let me = username.lowercased()
            let position = -Int(clamping: seq ?? 0)  // newer follows sort first
            try await database.follows.save([
                FollowEntry(owner: me, relation: "followers", user: follower, position: position)
            ])
            return ((), [.follows(owner: me, relation: "followers")])
        }
    }

    /// Tweets for the timeline (from a refresh, an event or this user's own post).
    func add(timeline entries: [TimelineEntry]) async throws {
        guard !entries.isEmpty else { return }
        try await write { [self] in
            try await database.timeline.save(entries)
            return ((), [.timeline])
        }
    }

    /// Records that events up to `seq` are applied (never moves backwards).
    func advanceCursor(to seq: Int64) async throws {
        try await write { [self] in
            if try await database.lastSeq() < seq { try await database.cursor.save([SyncCursor(lastSeq: seq)]) }
            return ((), [])
        }
    }

    /// Written order (of messages and queued actions): microseconds since 1970, strictly
    /// increasing in this process.
    func nextOrder() -> Int64 {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return lastOrder.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }

    // MARK: one write at a time

    /// Runs `job` after every write submitted before it, then publishes what it changed.
    func write<T: Sendable>(_ job: @escaping @Sendable () async throws -> (T, [LocalChange])) async throws -> T {
        let (value, changed) = try await serializer.run(job)
        changes.publish(changed)
        return value
    }
}
