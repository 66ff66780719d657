import ChirpModels
import ChirpNetworking
import ChirpPersistence

/// Message actions and search (issue 23). Actions take a message's local id
/// (`LocalMessage.id`, `sender/clientMessageId`), so they work on a message still pending:
/// each is applied to the local row at once (observers hear it through `changes()`), stored in
/// the outbox behind the message and any action queued before it, survives a restart, and is
/// sent once the message has a server id. The server's `message.updated` / `message.deleted`
/// events then confirm it on every device.
extension UserSession {
    /// Adds `emoji` (one emoji) to message `messageId` (a local id) of the conversation with
    /// `peer`, or with `remove` takes it back. Throws `MessageActionError` when there is no such
    /// message here or the emoji is not one character.
    public func react(_ emoji: String, to messageId: String, with peer: String, remove: Bool = false) async throws {
        do { _ = try Validation.reaction(emoji) } catch { throw MessageActionError.invalid(error.message) }
        try await queue(remove ? .unreact : .react, emoji, on: messageId, with: peer)
    }

    /// Replaces the text of this user's message `messageId` (a local id) with `peer`. The
    /// server allows it within 15 minutes of sending; a refused edit is undone locally.
    public func edit(_ messageId: String, with peer: String, text: String) async throws {
        let checked: String
        do { checked = try Validation.messageText(text) } catch { throw MessageActionError.invalid(error.message) }
        try await queue(.edit, checked, on: messageId, with: peer)
    }

    /// Unsends this user's message `messageId` (a local id) with `peer`: a tombstone for both.
    public func unsend(_ messageId: String, with peer: String) async throws {
        try await queue(.unsend, "", on: messageId, with: peer)
    }

    /// This user's messages (with `peer` only, when given) holding every word of `query`,
    /// newest first, from the server (nothing is stored); pass `nextCursor` as `cursor` for
    /// the next page.
    public func searchMessages(_ query: String, peer: String? = nil, limit: Int = 50, cursor: String? = nil)
        async throws -> Page<Message>
    {
        try await api.send(
            ChirpEndpoints.SearchMessages(
                query, peer: peer, page: PageParameters(limit: min(max(limit, 1), 100), cursor: cursor)))
    }

    /// The local id of a message of the conversation with `peer` named by its local id, its
    /// server id or its client id (what `chirp react bob/ID` accepts); nil when none is stored.
    public func localMessageId(_ id: String, with peer: String) async throws -> String? {
        let conversation = RecordQuery().filter("peer", .equal, .text(peer.lowercased()))
        if let row = try await database.messages.fetch(id: id), row.peer == peer.lowercased() { return row.id }
        for column in ["serverId", "clientMessageId"] {
            if let row = try await database.messages.fetch(conversation.filter(column, .equal, .text(id)).limit(1))
                .first
            {
                return row.id
            }
        }
        return nil
    }

    /// Why the server refused queued actions since the last call (an edit after the window,
    /// a reaction on an unsent message …); each refused action was dropped and its message
    /// brought back as the server has it.
    public func takeRefusedActions() -> [String] {
        outbox.takeRefusedActions()
    }

    /// Actions waiting in the outbox, in order.
    public func pendingActions() async throws -> [PendingAction] {
        try await database.pendingActions()
    }

    private func queue(_ kind: PendingAction.Kind, _ value: String, on messageId: String, with peer: String)
        async throws
    {
        _ = try await ledger.queue(kind, value, on: messageId, peer: peer)
        _ = await outbox.drain()
    }

    /// What a new message stores as `replyTo`: the server id of the local message named, or
    /// its local id while it is pending.
    func replyReference(_ localId: String?, with peer: String) async throws -> String? {
        guard let localId else { return nil }
        guard let row = try await database.messages.fetch(id: localId), row.peer == peer.lowercased() else {
            throw MessageActionError.noSuchMessage(localId)
        }
        return row.serverId ?? row.id
    }
}
