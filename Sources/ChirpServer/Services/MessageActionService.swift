import ChirpModels
import Foundation

/// Message actions and search: reactions, edits and unsends (each appended to both people's
/// streams by the storage, then published here), reply links checked before a send, and
/// search over the viewer's own conversations. The rules are `MessageActionRules`.
struct MessageActionService: Sendable {
    let store: any MessageActionStore
    /// Group messages' actions (`/v1/groups/{id}/messages/{messageId}/…`); nil: none.
    var groups: (any GroupStore)?
    /// The members' devices an edit's envelope must be sealed to; nil: edits carry no envelopes.
    var devices: (any DeviceStore)?
    let hub: EventHub
    /// The reaction limit (`limits.reactions`, per user).
    let limits: RateLimits
    /// How long after sending a message its sender may edit it.
    let editWindow: Duration
    let now: @Sendable () -> Timestamp

    /// Checks a send's `replyTo`, a message id of the conversation the send goes to, and
    /// returns it as stored: 422 `invalid_reply` when it is not one of that conversation's
    /// messages the viewer sees (in a group, one from the viewer's joining on; the same for a
    /// group the viewer is not in, whose send is refused after), 404 without the recipient.
    func replyTarget(_ viewer: Viewer, in conversation: MessageActionTarget, replyTo raw: String?) async throws
        -> Int64?
    {
        guard let raw else { return nil }
        switch conversation {
        case .peer(let recipient):
            guard let id = Validation.parseId(raw) else { throw Self.invalidReply }
            switch try await store.replyTarget(id, sender: viewer.id, recipientKey: try UsernameLookup.key(recipient)) {
            case .noSuchRecipient: throw APIError.userNotFound(recipient)
            case .notInConversation: throw Self.invalidReply
            case .valid: return id
            }
        case .group(let rawGroup):
            return try await replyTarget(viewer, inGroup: try GroupService.id(rawGroup), replyTo: raw)
        }
    }

    /// `replyTarget` in group `groupId` (its id already read from the path).
    func replyTarget(_ viewer: Viewer, inGroup groupId: Int64, replyTo raw: String?) async throws -> Int64? {
        guard let raw else { return nil }
        guard let id = Validation.parseId(raw),
            try await store.replyTarget(id, viewer: viewer.id, groupId: groupId) == .valid
        else { throw Self.invalidReply }
        return id
    }

    /// Adds the viewer's reaction (`emoji` as the path carried it, percent-encoded), or takes
    /// it back with `remove`. Both are idempotent.
    func react(
        _ viewer: Viewer, in conversation: MessageActionTarget, messageId: String, emoji rawEmoji: String, remove: Bool
    ) async throws {
        let emoji: String
        do { emoji = try Validation.reaction(rawEmoji.removingPercentEncoding ?? "") } catch {
            throw APIError.validation(error)
        }
        let rules = rules(viewer, conversation)
        let key = String(viewer.id)
        if !remove { try await limits.takeReaction(viewer) }
        let changed: Bool
        do {
            changed =
                try await apply(viewer, conversation, messageId: messageId) {
                    try rules.react(emoji, remove: remove, $0)
                } != nil
        } catch {
            if !remove { limits.giveBack(limits.reactions, key: key) }
            throw error
        }
        if !remove && !changed { limits.giveBack(limits.reactions, key: key) }
    }

    /// Replaces the text of the viewer's message; the message as now stored.
    func edit(
        _ viewer: Viewer, in conversation: MessageActionTarget, messageId: String, text rawText: String,
        envelope: Envelope? = nil
    ) async throws -> Message {
        let rules = rules(viewer, conversation)
        var result: Message?
        let changed: Message?
        if let envelope {
            try await check(envelope, from: viewer, in: conversation, text: rawText)
            changed = try await apply(viewer, conversation, messageId: messageId, unchanged: { result = $0 }) {
                try rules.edit(to: envelope, $0)
            }
        } else {
            let text: String
            do { text = try Validation.messageText(rawText) } catch { throw APIError.validation(error) }
            changed = try await apply(viewer, conversation, messageId: messageId, unchanged: { result = $0 }) {
                try rules.edit(to: text, $0)
            }
        }
        guard let message = changed ?? result else { throw StorageError.inconsistent("an edit returned no message") }
        return message
    }

    /// Unsends the viewer's message: a tombstone for both people. Idempotent.
    func unsend(_ viewer: Viewer, in conversation: MessageActionTarget, messageId: String) async throws {
        let rules = rules(viewer, conversation)
        _ = try await apply(viewer, conversation, messageId: messageId) { try rules.unsend($0) }
    }

    /// The viewer's messages (with `peer` only, when given) holding every word of `query`,
    /// newest first; the cursor is the last message's id.
    func search(_ viewer: Viewer, query rawQuery: String, peer: String?, group: String? = nil, page: PageRequest)
        async throws -> Page<Message>
    {
        let query: String
        do { query = try Validation.searchQuery(rawQuery) } catch { throw APIError.validation(error) }
        guard peer == nil || group == nil else {
            throw APIError.badParameter("group", "Search one conversation: 'peer' or 'group', not both.")
        }
        let words = SearchTerms.words(query)
        // A group search asks the index for each word in each of the viewer's groups (at most
        // `--max-groups-per-user`): the words are capped so that its cost is bounded too.
        guard words.count <= SearchTerms.maxQueryWords else {
            throw APIError(
                .unprocessableContent, APIErrorCode.invalidQuery,
                "A search holds at most \(SearchTerms.maxQueryWords) different words.",
                field: "q")
        }
        var found: [Message] = []
        // Direct conversations (unless one group is asked for), then the viewer's groups (unless
        // one peer is asked for); both share one id sequence, so one cursor walks both.
        if group == nil {
            let peerKey = try peer.map { try UsernameLookup.key($0) }
            guard
                let direct = try await store.searchMessages(
                    viewer: viewer.id, peerKey: peerKey, words: words, before: page.before, limit: page.fetch)
            else { throw APIError.userNotFound(peer ?? "") }
            found = direct
        }
        if peer == nil, let groups {
            let groupId = try group.map { try GroupService.id($0) }
            guard
                let inGroups = try await groups.searchGroupMessages(
                    viewer: viewer.id, group: groupId, words: words, before: page.before, limit: page.fetch)
            else { throw GroupService.notFound }
            found = (found + inGroups).sorted { (Int64($0.id) ?? 0) > (Int64($1.id) ?? 0) }
        }
        let rows = found.compactMap { message in Int64(message.id).map { Listed(cursor: $0, item: message) } }
        return PageBuilder.newestFirst(rows, limit: page.limit)
    }

    // MARK: helpers

    /// A new envelope's shape, sender device and devices against the members' current ones
    /// (`EnvelopeCheck`), as a send's.
    private func check(_ envelope: Envelope, from viewer: Viewer, in conversation: MessageActionTarget, text: String)
        async throws
    {
        guard text.isEmpty else {
            throw EncryptionRules.textBesideEnvelope
        }
        try EnvelopeCheck.shape(envelope)
        let found: [String: [Device]]?
        switch conversation {
        case .peer(let peer):
            found = try await devices?.directDevices(viewer: viewer.id, peerKey: try UsernameLookup.key(peer))
            if found == nil { throw APIError.userNotFound(peer) }
        case .group(let rawGroup):
            found = try await devices?.groupDevices(groupId: try GroupService.id(rawGroup), viewer: viewer.id)
            if found == nil { throw GroupService.notFound }
        }
        try EnvelopeCheck.recipients(envelope, sender: viewer.username, devices: found ?? [:])
    }

    private func rules(_ viewer: Viewer, _ conversation: MessageActionTarget) -> MessageActionRules {
        let peer: String
        switch conversation {
        case .peer(let name): peer = name
        case .group: peer = ""
        }
        return MessageActionRules(viewer: viewer, peerName: peer, now: now(), editWindow: editWindow)
    }

    /// Runs one change through the storage and publishes its events; the changed message, or
    /// nil when nothing changed (then `unchanged` gets the message as stored).
    private func apply(
        _ viewer: Viewer, _ conversation: MessageActionTarget, messageId: String,
        unchanged: (Message) -> Void = { _ in },
        _ change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> Message? {
        let at = now()
        let outcome: MessageChangeOutcome
        switch conversation {
        case .peer(let peer):
            guard let id = Validation.parseId(messageId) else { throw Self.noSuchMessage(messageId) }
            let peerKey = try UsernameLookup.key(peer)
            outcome = try await store.changeMessage(
                id, viewer: viewer.id, peerKey: peerKey, at: at, encoding: MessageChangeJSON(), change: change)
            if case .noSuchPeer = outcome { throw APIError.userNotFound(peer) }
        case .group(let rawGroup):
            let groupId = try GroupService.id(rawGroup)
            guard let groups else { throw GroupService.notFound }
            guard let id = Validation.parseId(messageId) else { throw Self.noSuchMessage(messageId) }
            outcome = try await groups.changeGroupMessage(
                id, groupId: groupId, viewer: viewer.id, at: at, encoding: MessageChangeJSON()
            ) { message, senderId in
                try GroupMessageAction.decide(message, senderId: senderId, viewer: viewer.id, change)
            }
            if case .noSuchPeer = outcome { throw GroupService.notFound }
        }
        switch outcome {
        case .noSuchPeer:
            throw StorageError.inconsistent("a missing conversation was not answered")
        case .noSuchMessage:
            throw Self.noSuchMessage(messageId)
        case .unchanged(let message):
            unchanged(message)
            return nil
        case .changed(let message, let appended):
            hub.publish(appended)
            return message
        }
    }

    static let invalidReply = APIError(
        .unprocessableContent, APIErrorCode.invalidReply, "replyTo must be the id of a message in this conversation.",
        field: "replyTo")

    static func noSuchMessage(_ id: String) -> APIError {
        APIError(.notFound, APIErrorCode.messageNotFound, "There is no message \(id.prefix(24)) in this conversation.")
    }
}

/// Where a message action applies: the viewer's direct conversation with a user (as the path
/// named them) or a group (its id as the path gave it).
enum MessageActionTarget: Sendable, Equatable {
    case peer(String)
    case group(String)
}
