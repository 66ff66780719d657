import ChirpModels

/// Changes to stored messages, written once for both engines: reply links, a direct message's
/// edit, reaction or unsend (`changeMessage`), a group message's (`changeGroupMessage`) and an
/// operator's take-down of either. Each write locks as every PostgreSQL writer does (a group's
/// row before users', users in id order, then the message's row; nothing on SQLite's one
/// writer) and keeps the engine's search index in step (`StorageScope.unindexMessages`).
extension StorageEngine {
    func replyTarget(_ id: Int64, sender: Int64, recipientKey: String) async throws -> ReplyTargetCheck {
        try await reading { scope in
            guard let recipient = try await scope.userId(key: recipientKey) else { return .noSuchRecipient }
            let found = try await scope.queryRow(
                "SELECT 1 AS found FROM messages WHERE id = $1 AND user_lo = $2 AND user_hi = $3", id,
                min(sender, recipient), max(sender, recipient))
            return found != nil ? .valid : .notInConversation
        }
    }

    func replyTarget(_ id: Int64, viewer: Int64, groupId: Int64) async throws -> ReplyTargetCheck {
        try await reading { scope in
            try await scope.queryRow(GroupSQL.visibleMessageExists, groupId, viewer, id) != nil
                ? .valid : .notInConversation
        }
    }

    func changeMessage(
        _ id: Int64, viewer: Int64, peerKey: String, at: Timestamp, encoding: any MessageChangeEncoding,
        change: @escaping @Sendable (MessageFacts) throws -> MessageChange
    ) async throws -> MessageChangeOutcome {
        try await writing { scope in
            guard let peer = try await scope.userId(key: peerKey) else { return .noSuchPeer }
            try await scope.lockUsers([viewer, peer])
            guard
                let row = try await scope.queryRow(
                    """
                    SELECT m.sender_id, m.recipient_id, \(BlockSQL.blocked("$3", by: "$2")) AS viewer_blocked_peer,
                        \(BlockSQL.blocked("$2", by: "$3")) AS peer_blocked_viewer
                    FROM messages m WHERE m.id = $1 AND m.user_lo = $4 AND m.user_hi = $5\(scope.dialect.forUpdate)
                    """, id, viewer, peer, min(viewer, peer), max(viewer, peer)),
                let message = try await scope.directMessages(where: "m.id = $1", id).first
            else { return .noSuchMessage }
            let sender: Int64 = try row("sender_id")
            let recipient: Int64 = try row("recipient_id")
            let facts = MessageFacts(
                message: message, viewerIsSender: sender == viewer,
                viewerBlockedPeer: try row("viewer_blocked_peer"), peerBlockedViewer: try row("peer_blocked_viewer"))
            switch try change(facts) {
            case .none:
                return .unchanged(message)
            case .update(let updated):
                try await scope.storeChange(
                    updated, of: message, id: id, conversation: "group_id IS NULL", encoding: encoding)
                let stored = try await scope.directMessages(where: "m.id = $1", id).first ?? updated
                let appended = try await scope.appendEvents(
                    userIds: [sender, recipient], type: EventType.messageUpdated, json: encoding.updated(stored),
                    at: at, stored: .message(id))
                return .changed(stored, appended)
            case .unsend:
                let tombstone = message.tombstone()
                let appended = try await scope.storeTombstone(
                    id, sender: sender, recipient: recipient, notice: try encoding.deleted(tombstone), at: at)
                return .changed(tombstone, appended)
            }
        }
    }

    func changeGroupMessage(
        _ id: Int64, groupId: Int64, viewer: Int64, at: Timestamp, encoding: any MessageChangeEncoding,
        decide: @escaping @Sendable (_ message: Message, _ senderId: Int64) throws -> GroupMessageAction?
    ) async throws -> MessageChangeOutcome {
        try await writing { scope in
            guard try await scope.lockGroup(groupId),
                let membership = try await scope.membership(groupId: groupId, userId: viewer),
                try membership("current", as: Bool.self)
            else { return .noSuchPeer }
            @Sendable func read() async throws -> Message? {
                try await scope.queryRow(GroupSQL.visibleMessage, groupId, viewer, id).map(
                    MessageColumns.message(from:))
            }
            guard let message = try await read(),
                let sender = try await scope.queryValue(
                    "SELECT sender_id FROM messages WHERE id = $1 AND group_id IS NOT NULL\(scope.dialect.forUpdate)",
                    id, as: Int64.self)
            else { return .noSuchMessage }
            guard let action = try decide(message, sender) else { return .unchanged(message) }
            if case .update(let updated) = action.change {
                try await scope.storeChange(
                    updated, of: message, id: id, conversation: "group_id IS NOT NULL", encoding: encoding)
            } else {
                try await scope.tombstoneMessages(where: "group_id IS NOT NULL AND id = $1", id)
            }
            guard let stored = try await read() else {
                throw StorageError.inconsistent("group message \(id) is missing")
            }
            let deleted = action.change == .unsend ? try encoding.deleted(stored) : nil
            let appended = try await scope.appendGroupMessageEvents(
                groupId: groupId, sender: sender, type: action.type, stored, at: at
            ) { deleted ?? encoding.updated($0) }
            return .changed(stored, appended)
        }
    }

    /// A direct message's take-down locks both people's rows, then the message's; a group
    /// message's locks its group's row first, as every group write does.
    func takeDown(messageId id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding)
        async throws -> WriteOutcome<Message>?
    {
        try await writing { scope in
            guard
                let people = try await scope.queryRow(
                    "SELECT sender_id, recipient_id FROM messages WHERE id = $1 AND group_id IS NULL", id)
            else { return try await scope.takeDownGroupMessage(id, by: actor, at: at, encoding: encoding) }
            let sender: Int64 = try people("sender_id")
            let recipient: Int64 = try people("recipient_id")
            try await scope.lockUsers([sender, recipient])
            guard
                try await scope.queryRow("SELECT id FROM messages WHERE id = $1\(scope.dialect.forUpdate)", id) != nil,
                let message = try await scope.directMessages(where: "m.id = $1", id).first
            else { return nil }
            guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
            let takenDown = message.tombstone(byOperators: true)
            let appended = try await scope.storeTombstone(
                id, sender: sender, recipient: recipient, byOperators: true, notice: try encoding.deleted(takenDown),
                at: at)
            try await scope.audit(
                actor, .removeMessage, target: message.id, detail: "\(message.sender) to \(message.recipient)", at: at)
            return WriteOutcome(value: takenDown, created: true, appended: appended)
        }
    }
}

extension StorageScope {
    /// Stores `updated`, the new content of message `id` (`message` until now) of the kind
    /// `conversation` says (a condition on `messages`): its text, edit time, reactions and
    /// envelope; a changed text is indexed again.
    func storeChange(
        _ updated: Message, of message: Message, id: Int64, conversation: String, encoding: any MessageChangeEncoding
    ) async throws {
        let textChanged = updated.text != message.text
        if textChanged { try await unindexMessages(where: "id = $1", id) }
        try await run(
            """
            UPDATE messages SET text = $2, edited_at = $3, reactions = $4, envelope = $5
            WHERE id = $1 AND \(conversation)
            """,
            id, updated.text, updated.editedAt, encoding.reactionsColumn(updated.reactions),
            try EnvelopeColumn.encode(updated.envelope))
        if textChanged { try await indexMessage(id, text: updated.text) }
    }

    /// Makes direct message `id` a tombstone for both people (`byOperators`: a take-down) and
    /// tells both streams with `message.deleted` (`notice`; the events are read from the row).
    func storeTombstone(
        _ id: Int64, sender: Int64, recipient: Int64, byOperators: Bool = false, notice: String, at: Timestamp
    ) async throws -> [AppendedEvent] {
        try await tombstoneMessages(where: "group_id IS NULL AND id = $1", id, byOperators: byOperators)
        return try await appendEvents(
            userIds: [sender, recipient], type: EventType.messageDeleted, json: notice, at: at, stored: .message(id))
    }

    /// Makes the messages matching `condition` (over `$1`, `argument`) tombstones, out of the
    /// search index first (`MessageTombstoneSQL`); `byOperators` marks them taken down.
    func tombstoneMessages(where condition: String, _ argument: Int64, byOperators: Bool = false) async throws {
        try await unindexMessages(where: condition, argument)
        try await run(MessageTombstoneSQL.tombstone(where: condition, byOperators: byOperators), argument)
    }

    /// Takes group message `id` down (`ModerationStore.takeDown`): a tombstone marked
    /// `removedByOperators`, `message.deleted` to every current member, an entry in the audit
    /// log; nil when there is no such group message. The group's row is locked first.
    func takeDownGroupMessage(
        _ id: Int64, by actor: OperatorActor, at: Timestamp, encoding: any MessageChangeEncoding
    ) async throws -> WriteOutcome<Message>? {
        guard let ids = try await queryRow(GroupSQL.messageGroupAndSender, id) else { return nil }
        let groupId: Int64 = try ids("group_id")
        let sender: Int64 = try ids("sender_id")
        guard try await lockGroup(groupId), let row = try await queryRow(GroupSQL.messageById, id, sender) else {
            return nil
        }
        let message = try MessageColumns.message(from: row)
        guard !message.removedByOperators else { return WriteOutcome(value: message, created: false) }
        let takenDown = message.tombstone(byOperators: true)
        try await tombstoneMessages(where: "group_id IS NOT NULL AND id = $1", id, byOperators: true)
        let notice = try encoding.deleted(takenDown)
        let appended = try await appendGroupMessageEvents(
            groupId: groupId, sender: sender, type: EventType.messageDeleted, takenDown, at: at
        ) { _ in notice }
        try await audit(
            actor, .removeMessage, target: message.id, detail: "\(message.sender) in group \(groupId)", at: at)
        return WriteOutcome(value: takenDown, created: true, appended: appended)
    }
}
