import ChirpEncryption
import ChirpModels
import Foundation

/// Blocks and reports. A block's effects on messages, follows and lists are the rules of
/// `MessageRules` and `SocialService` and the storages' list queries, which all read the
/// `blocks` table, so they hold at once on every instance; this service writes the block
/// (which also removes follows both ways) and tells the blocker's other devices.
struct SafetyService: Sendable {
    let store: any SafetyStore
    let hub: EventHub
    let now: @Sendable () -> Timestamp
    /// Reports per reporter (`limits.reports`).
    var limits = RateLimits.off

    /// Blocks `username`; blocking someone already blocked is not an error.
    func block(_ viewer: Viewer, username: String) async throws {
        let key = try UsernameLookup.key(username)
        if key == Validation.usernameKey(viewer.username) {
            throw APIError(.unprocessableContent, APIErrorCode.cannotBlockSelf, "You cannot block yourself.")
        }
        guard let outcome = try await store.block(blockerId: viewer.id, blockedKey: key, at: now(), notice: Self.notice)
        else {
            throw APIError.userNotFound(username)
        }
        hub.publish(outcome.appended)
    }

    /// Unblocks `username`; unblocking someone not blocked is not an error.
    func unblock(_ viewer: Viewer, username: String) async throws {
        guard
            let outcome = try await store.unblock(
                blockerId: viewer.id, blockedKey: try UsernameLookup.key(username), at: now(), notice: Self.notice)
        else { throw APIError.userNotFound(username) }
        hub.publish(outcome.appended)
    }

    /// The users the viewer blocked, newest block first.
    func blocks(_ viewer: Viewer, page: PageRequest) async throws -> Page<User> {
        PageBuilder.newestFirst(
            try await store.blocks(blockerId: viewer.id, before: page.before, limit: page.fetch), limit: page.limit)
    }

    /// Files a report about `request.username` (and one of the messages between them, which
    /// the report keeps a copy of); returns its id.
    func report(_ viewer: Viewer, _ request: ReportRequest) async throws -> ReportReceipt {
        let key = try UsernameLookup.key(request.username)
        let reason: ReportReason
        do {
            reason = try Validation.reportReason(request.reason)
            if let note = request.note { try Validation.reportNote(note) }
        } catch { throw APIError.validation(error) }
        var messageId: Int64?
        if let raw = request.messageId {
            guard let id = Validation.parseId(raw) else { throw Self.messageNotFound(raw) }
            messageId = id
        }
        var new = NewReport(
            reporter: viewer, reportedKey: key, messageId: messageId, reason: reason, note: request.note,
            createdAt: now())
        if request.contentKey != nil || request.plaintext != nil {
            new.messageText = try await verifiedText(
                request, messageId: messageId, reporter: viewer.id, reportedKey: key)
        }
        let limitKey = String(viewer.id)
        try await limits.take(limits.reports, key: limitKey, refusal: "You have filed too many reports")
        let outcome: ReportOutcome
        do {
            outcome = try await store.fileReport(new)
        } catch {
            limits.giveBack(limits.reports, key: limitKey)
            throw error
        }
        switch outcome {
        case .noSuchUser:
            limits.giveBack(limits.reports, key: limitKey)
            throw APIError.userNotFound(request.username)
        case .noSuchMessage:
            limits.giveBack(limits.reports, key: limitKey)
            throw Self.messageNotFound(request.messageId ?? "")
        case .filed(let id): return ReportReceipt(id: String(id))
        }
    }

    /// The text of the encrypted message a report names, when its content key and plaintext
    /// open the stored envelope to exactly that plaintext, match its commitment and its
    /// signature verifies with the sender device's key (`ReportVerifier`); 422 otherwise.
    private func verifiedText(_ request: ReportRequest, messageId: Int64?, reporter: Int64, reportedKey: String)
        async throws -> String
    {
        let unverifiable = APIError(
            .unprocessableContent, APIErrorCode.unverifiableReport,
            "The content key and plaintext do not open this message's envelope as its sender sealed it.",
            field: "plaintext")
        guard let messageId, let contentKey = request.contentKey.flatMap({ Base64URL.decode($0, count: 32) }),
            let plaintext = request.plaintext,
            let reported = try await store.reportedEnvelope(
                messageId: messageId, reporter: reporter, reportedKey: reportedKey),
            let identityKey = reported.senderIdentityKey
        else { throw unverifiable }
        let conversation =
            reported.message.group.map { ConversationID.group($0) }
            ?? ConversationID.direct(String(reported.reporterId), String(reported.reportedId))
        guard
            ReportVerifier.verify(
                envelope: reported.envelope, conversationId: conversation.rawValue,
                clientMessageId: reported.message.clientMessageId, senderIdentityKey: identityKey,
                contentKey: contentKey, plaintext: plaintext),
            let opened = try? JSONDecoder().decode(EncryptedPlaintext.self, from: Data(plaintext.utf8))
        else { throw unverifiable }
        return opened.text
    }

    private static func messageNotFound(_ id: String) -> APIError {
        APIError(
            .notFound, APIErrorCode.messageNotFound,
            "There is no message \(id.prefix(32)) in your conversation with that user.",
            field: "messageId")
    }

    private static let notice: @Sendable (String) throws -> String = { username in
        try APIJSON.encode(BlockNotice(username: username))
    }
}
