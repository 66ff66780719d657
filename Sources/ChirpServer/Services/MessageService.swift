import ChirpModels

/// Direct messages: idempotent sends under the sender's rate limit, history pages,
/// conversations, read markers and typing notices. The rules themselves are `MessageRules`;
/// this type applies them and wakes the listeners after each commit.
struct MessageService: Sendable {
    let store: any MessageStore
    let hub: EventHub
    /// Other instances on the same database (PostgreSQL), for live-only events; nil with SQLite.
    let bus: (any ClusterEventBus)?
    /// The direct-message limit (`limits.messages`, per sender).
    let limits: RateLimits
    let metrics: ServerMetrics
    let now: @Sendable () -> Timestamp
    /// Resolves a send's `mediaIds`; nil: sends carry no media.
    var media: MediaService?
    /// Checks a send's `replyTo` (`MessageActionService.replyTarget`); nil: sends carry no
    /// reply links.
    var replies: MessageActionService?
    /// Queues the pushes of each message sent (Web Push); nil: none.
    var push: PushNotifier?
    /// The members' devices an envelope must be sealed to; nil: sends carry no envelopes.
    var devices: (any DeviceStore)?
    /// Confirms a viewer's session by a read of storage (`AccountService.confirmed`) before
    /// the send reads on its behalf, when its write was to confirm it
    /// (`SessionConfirmation.bySendWrite`).
    var confirmSession: @Sendable (Viewer) async throws -> Viewer = { $0 }

    /// Sends `text` to `recipient` under the sender's `clientMessageId`: created (`created`),
    /// or the stored message again when it is a retry. The outcome's `json` is the message as
    /// the API's JSON when the send encoded it for its event.
    /// `replyTo` is the id of a message of the conversation with `recipient` it answers. In an
    /// encrypted conversation the message is `envelope` instead of text and reply (API.md part 4).
    func send(
        _ viewer: Viewer, to recipient: String, clientMessageId: String, text rawText: String,
        replyTo rawReplyTo: String? = nil,
        mediaIds: [String] = [], envelope: Envelope? = nil
    ) async throws -> WriteOutcome<Message> {
        // The reply target, the media and the devices are read for the viewer before the
        // write: only a session a read confirmed may read them.
        let viewer =
            rawReplyTo == nil && mediaIds.isEmpty && envelope == nil ? viewer : try await confirmSession(viewer)
        // A retry of an envelope already stored is answered with it, whatever the devices are now.
        if let envelope,
            try await store.message(sender: viewer.id, clientMessageId: clientMessageId)?.envelope != envelope
        {
            try await check(envelope, from: viewer, to: recipient, text: rawText, replyTo: rawReplyTo)
        }
        let replyTo = try await replies?.replyTarget(viewer, in: .peer(recipient), replyTo: rawReplyTo) ?? nil
        guard Validation.isValidClientId(clientMessageId) else {
            throw APIError.badParameter(
                "clientMessageId", "A clientMessageId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let attached = try await media?.attachable(viewer, ids: mediaIds) ?? []
        let text = envelope == nil ? try MessageRules.text(rawText, withMedia: !attached.isEmpty) : ""
        var new = NewMessage(
            sender: viewer, recipient: recipient, recipientKey: try UsernameLookup.recipientKey(recipient),
            clientMessageId: clientMessageId,
            text: text, createdAt: now(), replyTo: replyTo)
        new.media = attached
        new.mediaJSON = MediaListJSON.encode(attached)
        new.envelope = envelope
        new.envelopeJSON = try EnvelopeColumn.encode(envelope)
        let sent = try await limits.send(key: String(viewer.id)) {
            // Past the limit, a retry of a message already stored is still answered (to a
            // session that is still there: the answer is a read).
            _ = try await confirmSession(viewer)
            return try await store.message(sender: viewer.id, clientMessageId: clientMessageId).flatMap {
                MessageRules.isRetry($0, of: new) ? $0 : nil
            }
        } write: {
            try await store.sendMessage(new, decisions: MessageRules())
        }
        guard let outcome = sent else { throw StorageError.inconsistent("a direct send wrote nothing") }
        if outcome.created {
            hub.publish(outcome.appended)
            metrics.messagesSent.increment()
            if let id = Int64(outcome.value.id) { push?.stored(messageId: id) }
        }
        return outcome
    }

    /// An envelope's shape, its sender device and its devices against the two people's current
    /// ones; text and a reply link travel inside it, never beside it.
    private func check(_ envelope: Envelope, from viewer: Viewer, to recipient: String, text: String, replyTo: String?)
        async throws
    {
        guard text.isEmpty, replyTo == nil else {
            throw EncryptionRules.textBesideEnvelope
        }
        try EnvelopeCheck.shape(envelope)
        guard
            let devices = try await self.devices?.directDevices(
                viewer: viewer.id, peerKey: try UsernameLookup.recipientKey(recipient))
        else { throw APIError.userNotFound(recipient) }
        try EnvelopeCheck.recipients(envelope, sender: viewer.username, devices: devices)
    }

    /// A page of the conversation with `peer`, oldest first: the newest `limit` (older than
    /// `before`, the cursor going back), or with `after` the `limit` just newer than it (the
    /// cursor going forwards).
    func page(_ viewer: Viewer, peer: String, limit: Int, before: Int64?, after: Int64?) async throws -> Page<Message> {
        let forwards = after != nil
        guard
            let found = try await store.messages(
                viewer: viewer.id, peerKey: try UsernameLookup.conversationKey(peer), after: after ?? 0,
                before: before ?? Int64.max,
                ascending: forwards, limit: limit + 1)
        else { throw APIError.userNotFound(peer) }
        let more = found.count > limit
        if forwards {
            let items = Array(found.prefix(limit))
            return Page(items: items, nextCursor: more ? items.last.map(\.id) : nil)
        }
        let items = Array(found.prefix(limit).reversed())
        return Page(items: items, nextCursor: more ? items.first.map(\.id) : nil)
    }

    /// Marks `peer`'s messages up to `upTo` (a message of this conversation) read, and tells
    /// `peer` with a `message.read` event when that changed anything; while the viewer has a
    /// pending request from `peer`, only the viewer's unread count changes.
    func markRead(_ viewer: Viewer, peer: String, upTo rawUpTo: String) async throws {
        guard let upTo = Validation.parseId(rawUpTo) else {
            throw APIError(.badRequest, APIErrorCode.invalidParameter, "'upTo' must be a message id.", field: "upTo")
        }
        let peerKey = try UsernameLookup.conversationKey(peer)
        let reader = viewer.username
        let receipt: @Sendable (String, Bool) throws -> String? = { peerName, pendingRequest in
            guard MessageRules.sendsReadReceipt(pendingRequest: pendingRequest) else { return nil }
            return try APIJSON.encode(ReadReceipt(reader: reader, peer: peerName, upTo: String(upTo)))
        }
        switch try await store.markRead(reader: viewer.id, peerKey: peerKey, upTo: upTo, at: now(), receipt: receipt) {
        case .noSuchPeer:
            throw APIError.userNotFound(peer)
        case .noSuchMessage:
            throw APIError(
                .notFound, APIErrorCode.messageNotFound, "There is no message \(upTo) in this conversation.",
                field: "upTo")
        case .unchanged:
            return
        case .marked(let appended):
            hub.publish(appended)
        }
    }

    /// Tells `peer` (live only, never stored) that the viewer is typing, if the viewer may
    /// message them; in a conversation with a request pending either way, nothing is told.
    func typing(_ viewer: Viewer, to peer: String) async throws {
        try await limits.takeTyping(viewer)
        guard
            let facts = try await store.recipientFacts(
                sender: viewer.id, recipientKey: try UsernameLookup.recipientKey(peer))
        else {
            throw APIError.userNotFound(peer)
        }
        guard MessageRules.typingReaches(try MessageRules.permission(sender: viewer.id, to: facts, named: peer)) else {
            return
        }
        let at = now()
        guard
            let event = hub.publishLive(
                to: facts.id, type: EventType.typing, payload: TypingNotice(from: viewer.username), at: at)
        else { return }
        await bus?.publishLive(userId: facts.id, event: event)
    }
}
