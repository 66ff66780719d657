import ChirpModels

/// Group conversations (API.md part 3): creation, the group, its title, members and admins,
/// messages, read markers and typing. The rules are `GroupRules`; this type validates the
/// requests, applies the rules through storage and wakes the listeners after each commit.
struct GroupService: Sendable {
    let store: any GroupStore
    let hub: EventHub
    /// Other instances on the same database (PostgreSQL), for typing; nil with SQLite.
    let bus: (any ClusterEventBus)?
    /// The group-message limit is the direct-message one (`limits.messages`, per sender);
    /// changes count against `limits.groupChanges`, typing against `limits.typing`.
    let limits: RateLimits
    let rules: GroupRules
    let now: @Sendable () -> Timestamp
    /// Resolves a send's `mediaIds`; nil: group messages carry no media.
    var media: MediaService?
    /// Checks a send's `replyTo` in the group (`MessageActionService.replyTarget`), as direct
    /// sends do; nil: group messages carry no reply links.
    var replies: MessageActionService?
    /// Queues the pushes of each message sent (Web Push); nil: none.
    var push: PushNotifier?
    /// The members' devices an envelope must be sealed to; nil: sends carry no envelopes.
    var devices: (any DeviceStore)?

    /// A group the viewer is not in (or that does not exist): 404, so neither is revealed.
    static let notFound = APIError(
        .notFound, APIErrorCode.groupNotFound, "There is no such group, or you are not a member of it.")

    /// Creates a group under the creator's `clientGroupId` (201), or answers a repeat of the
    /// same call with the group (200).
    func create(_ viewer: Viewer, clientGroupId: String, _ request: CreateGroupRequest) async throws -> WriteOutcome<
        Group
    > {
        guard Validation.isValidClientId(clientGroupId) else {
            throw APIError.badParameter(
                "clientGroupId", "A clientGroupId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let title = try Self.title(request.title)
        // At most the allowed members are looked at: a longer list is refused below, whatever
        // the rest of it holds.
        var names: [String] = []
        var keys: [String] = []
        var seen: Set<String> = [Validation.usernameKey(viewer.username)]
        for name in request.members {
            let key = try UsernameLookup.recipientKey(name)
            guard seen.insert(key).inserted else { continue }
            names.append(name)
            keys.append(key)
            if keys.count >= rules.maxMembers { break }
        }
        guard (1..<rules.maxMembers).contains(keys.count) else {
            throw APIError(
                .unprocessableContent, APIErrorCode.invalidMembers,
                "A group has 1 to \(rules.maxMembers - 1) members besides its creator.", field: "members")
        }
        let new = NewGroup(
            creator: viewer, clientGroupId: clientGroupId, title: title, members: names, memberKeys: keys,
            createdAt: now())
        let outcome = try await counted(viewer) { try await store.createGroup(new, decisions: rules) }
        guard let outcome else { throw Self.notFound }
        hub.publish(outcome.appended)
        return outcome
    }

    /// Runs a group change by `viewer` under their group-change limit (429 past it); a change
    /// that writes nothing (a repeat, or a refusal) gives its count back, as a send does.
    private func counted<T: Sendable>(_ viewer: Viewer, _ write: () async throws -> WriteOutcome<T>?) async throws
        -> WriteOutcome<T>?
    {
        try await limits.takeGroupChange(viewer)
        let outcome: WriteOutcome<T>?
        do {
            outcome = try await write()
        } catch {
            limits.giveBack(limits.groupChanges, key: String(viewer.id))
            throw error
        }
        if outcome?.created != true { limits.giveBack(limits.groupChanges, key: String(viewer.id)) }
        return outcome
    }

    /// The groups the viewer is a current member of, in id order.
    func groups(_ viewer: Viewer) async throws -> [Group] {
        try await store.memberGroups(userId: viewer.id)
    }

    /// The group, for a current member.
    func group(_ viewer: Viewer, id rawId: String) async throws -> Group {
        guard let snapshot = try await store.group(id: try Self.id(rawId), viewer: viewer.id), snapshot.current else {
            throw Self.notFound
        }
        return snapshot.group
    }

    /// Renames the group (admins only).
    func rename(_ viewer: Viewer, id rawId: String, title rawTitle: String) async throws -> Group {
        try await change(viewer, id: rawId, .rename(try Self.title(rawTitle)))
    }

    /// Adds `username` (admins only), removes them (an admin anyone, anyone themselves), or
    /// gives or takes the admin role (admins only).
    @discardableResult
    func change(_ viewer: Viewer, id rawId: String, _ change: GroupChange) async throws -> Group {
        let id = try Self.id(rawId)
        guard
            let outcome = try await counted(
                viewer,
                { try await store.changeGroup(id: id, actor: viewer, change: change, at: now(), decisions: rules) })
        else { throw Self.notFound }
        hub.publish(outcome.appended)
        return outcome.value
    }

    /// The change `change` names `username`, with its lookup key.
    static func target(_ username: String, _ change: @Sendable (String, String) -> GroupChange) throws -> GroupChange {
        change(username, try UsernameLookup.key(username))
    }

    /// Sends a message to the group under the sender's `clientMessageId` (201), or answers a
    /// retry with the stored message (200); members only (404).
    func send(
        _ viewer: Viewer, id rawId: String, clientMessageId: String, text rawText: String, replyTo rawReplyTo: String?,
        mediaIds: [String], envelope: Envelope? = nil
    ) async throws -> WriteOutcome<Message> {
        let groupId = try Self.id(rawId)
        guard Validation.isValidClientId(clientMessageId) else {
            throw APIError.badParameter(
                "clientMessageId", "A clientMessageId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        // A retry of an envelope already stored is answered with it, whatever the devices are now.
        if let envelope,
            try await store.groupMessage(groupId: groupId, sender: viewer.id, clientMessageId: clientMessageId)?
                .envelope != envelope
        {
            guard rawText.isEmpty, rawReplyTo == nil else {
                throw EncryptionRules.textBesideEnvelope
            }
            try EnvelopeCheck.shape(envelope)
            guard let devices = try await devices?.groupDevices(groupId: groupId, viewer: viewer.id) else {
                throw Self.notFound
            }
            try EnvelopeCheck.recipients(envelope, sender: viewer.username, devices: devices)
        }
        let attached = try await media?.attachable(viewer, ids: mediaIds) ?? []
        let text = envelope == nil ? try MessageRules.text(rawText, withMedia: !attached.isEmpty) : ""
        let replyTo = try await replies?.replyTarget(viewer, inGroup: groupId, replyTo: rawReplyTo) ?? nil
        let new = NewGroupMessage(
            groupId: groupId, sender: viewer, clientMessageId: clientMessageId, text: text, createdAt: now(),
            replyTo: replyTo, media: attached,
            mediaJSON: MediaListJSON.encode(attached), envelope: envelope,
            envelopeJSON: try EnvelopeColumn.encode(envelope))
        let sent = try await limits.send(key: String(viewer.id)) {
            try await store.groupMessage(groupId: groupId, sender: viewer.id, clientMessageId: clientMessageId).flatMap
            {
                (try? rules.replay($0, for: new)) != nil ? $0 : nil
            }
        } write: {
            try await store.sendGroupMessage(new, decisions: rules)
        }
        guard let outcome = sent else { throw Self.notFound }
        if outcome.created {
            hub.publish(outcome.appended)
            if let id = Int64(outcome.value.id) { push?.stored(messageId: id) }
        }
        return outcome
    }

    /// A page of the group's messages the viewer may see, oldest first (as `MessageService.page`).
    func page(_ viewer: Viewer, id rawId: String, limit: Int, before: Int64?, after: Int64?) async throws -> Page<
        Message
    > {
        let forwards = after != nil
        guard
            let found = try await store.groupMessages(
                groupId: try Self.id(rawId), viewer: viewer.id, after: after ?? 0, before: before ?? Int64.max,
                ascending: forwards,
                limit: limit + 1)
        else { throw Self.notFound }
        let more = found.count > limit
        if forwards {
            let items = Array(found.prefix(limit))
            return Page(items: items, nextCursor: more ? items.last.map(\.id) : nil)
        }
        let items = Array(found.prefix(limit).reversed())
        return Page(items: items, nextCursor: more ? items.first.map(\.id) : nil)
    }

    /// Moves the viewer's read marker up to `upTo` and tells every member.
    func markRead(_ viewer: Viewer, id rawId: String, upTo rawUpTo: String) async throws {
        let groupId = try Self.id(rawId)
        guard let upTo = Validation.parseId(rawUpTo) else {
            throw APIError(.badRequest, APIErrorCode.invalidParameter, "'upTo' must be a message id.", field: "upTo")
        }
        let receipt = try APIJSON.encode(
            ReadReceipt(reader: viewer.username, peer: "", upTo: String(upTo), group: String(groupId)))
        let outcome = try await store.markGroupRead(groupId: groupId, reader: viewer.id, upTo: upTo, at: now()) {
            pendingRequest in
            MessageRules.sendsReadReceipt(pendingRequest: pendingRequest) ? receipt : nil
        }
        switch outcome {
        case .noSuchGroup: throw Self.notFound
        case .noSuchMessage:
            throw APIError(
                .notFound, APIErrorCode.messageNotFound, "There is no message \(upTo) in this group.", field: "upTo")
        case .unchanged: return
        case .marked(let appended): hub.publish(appended)
        }
    }

    /// Who read the message (its sender left out), first reader first.
    func readers(_ viewer: Viewer, id rawId: String, messageId rawMessageId: String) async throws -> [GroupReader] {
        let groupId = try Self.id(rawId)
        guard try await store.groupMemberIds(groupId: groupId, viewer: viewer.id) != nil else { throw Self.notFound }
        guard let messageId = Validation.parseId(rawMessageId),
            let readers = try await store.groupReaders(groupId: groupId, viewer: viewer.id, messageId: messageId)
        else { throw MessageActionService.noSuchMessage(rawMessageId) }
        return readers
    }

    /// Tells the other current members (live only) that the viewer is typing in the group,
    /// under the viewer's typing limit; while the viewer's group request is pending, nobody is
    /// told (as in a direct request), and members who blocked the viewer are never told.
    func typing(_ viewer: Viewer, id rawId: String) async throws {
        let groupId = try Self.id(rawId)
        try await limits.takeTyping(viewer)
        guard let audience = try await store.groupMemberIds(groupId: groupId, viewer: viewer.id) else {
            throw Self.notFound
        }
        guard !audience.pendingRequest else { return }
        let at = now()
        let notice = TypingNotice(from: viewer.username, group: String(groupId))
        for member in audience.members where member != viewer.id && !audience.blockers.contains(member) {
            guard let event = hub.publishLive(to: member, type: EventType.typing, payload: notice, at: at) else {
                continue
            }
            await bus?.publishLive(userId: member, event: event)
        }
    }

    /// Sets or clears the viewer's pin or mute on the group's conversation (as
    /// `ConversationService.mark`: idempotent, at most 10 pinned in all). A group is a
    /// conversation from the moment the viewer joins it, so a group with no message yet may be
    /// pinned or muted too.
    func mark(_ viewer: Viewer, id rawId: String, _ change: ConversationMarkChange) async throws {
        switch try await store.markGroup(
            id: try Self.id(rawId), viewer: viewer.id, change: change, at: now(), decisions: ConversationMarkRules())
        {
        case .noSuchPeer, .noConversation:
            throw Self.notFound
        case .done(let outcome):
            hub.publish(outcome.appended)
        }
    }

    /// A group id from the path: unknown ids are 404 as missing groups are.
    static func id(_ raw: String) throws -> Int64 {
        guard let id = Validation.parseId(raw) else { throw notFound }
        return id
    }

    static func title(_ raw: String) throws -> String {
        do { return try Validation.groupTitle(raw) } catch { throw APIError.validation(error) }
    }
}
