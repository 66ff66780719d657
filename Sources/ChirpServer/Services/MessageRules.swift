import ChirpModels

/// The rules of direct messages, written once: who may message whom, and when a send under a
/// client id already used is a retry (answered with the stored message) or a conflict.
///
/// Both storages ask these inside a send's transaction (as `SendDecisions`), the typing
/// notice and the rate limit of `MessageService` ask them outside one; SQL only fetches the
/// facts (`RecipientFacts`).
struct MessageRules: SendDecisions {
    /// The may-message rule: a user may message someone who follows them, or someone who has
    /// sent them a message, unless a block stands between them. Nobody messages themselves.
    /// A sender the recipient blocked gets the answer of a missing permission
    /// (`dm_not_allowed`), so the block is not revealed; a sender who blocked the recipient
    /// gets `blocked` (they know, and unblocking is what to do).
    static func refusal(sender: Int64, to recipient: RecipientFacts, named name: String) -> APIError? {
        if recipient.id == sender {
            return APIError(.unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot send a message to yourself.")
        }
        if recipient.blockedBySender { return APIError.youBlocked(name) }
        guard !recipient.blockedSender, recipient.followsSender || recipient.hasWrittenToSender else { return APIError.dmNotAllowed(name) }
        return nil
    }

    /// Whether `existing` (stored under the same client id) is `new` sent again: the same
    /// text to the same recipient.
    static func isRetry(_ existing: Message, of new: NewMessage) -> Bool {
        existing.text == new.text && Validation.usernameKey(existing.recipient) == new.recipientKey
            && existing.media.map(\.id) == new.media.map(\.id)
    }

    /// The text to store: checked as API.md says, except that it may be empty when media
    /// are attached.
    static func text(_ raw: String, withMedia: Bool) throws -> String {
        if withMedia, raw.trimmingSurroundingWhitespace().isEmpty { return "" }
        do { return try Validation.messageText(raw) } catch { throw APIError.validation(error) }
    }

    /// Insert when the rule allows it. A refused send that retries a message already stored is
    /// answered with that message (it was allowed when it was sent), so `earlier` is looked up
    /// only when refusing.
    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws -> SendDecision {
        guard let recipient else { throw APIError.userNotFound(new.recipient) }
        guard let refusal = Self.refusal(sender: new.sender.id, to: recipient, named: new.recipient) else { return .insert }
        guard let existing = try earlier() else { throw refusal }
        return .replay(try replay(existing, for: new))
    }

    /// The stored message when `new` is a retry of it; otherwise the client id was reused (409).
    func replay(_ existing: Message, for new: NewMessage) throws -> Message {
        guard Self.isRetry(existing, of: new) else { throw APIError.clientMessageIdReused }
        return existing
    }

    func encode(_ message: Message) -> String {
        MessageJSON.encode(message)
    }

    /// The token stopped working (logged out, or expired) before the send was written: 401.
    func sessionEnded() -> any Error {
        APIError.invalidToken
    }
}
