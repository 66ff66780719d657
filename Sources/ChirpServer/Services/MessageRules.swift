import ChirpModels

/// The rules of direct messages, written once: who may message whom, and when a send under a
/// client id already used is a retry (answered with the stored message) or a conflict.
///
/// Both storages ask these inside a send's transaction (as `SendDecisions`), the typing
/// notice and the rate limit of `MessageService` ask them outside one; SQL only fetches the
/// facts (`RecipientFacts`).
struct MessageRules: SendDecisions {
    /// How a message may reach its recipient.
    enum Permission: Sendable, Equatable {
        /// Part 1's rule allows it (or the recipient accepted the sender's request).
        case ordinary
        /// Allowed, and it answers the sender's pending request from the recipient: it accepts it.
        case reply
        /// Part 1's rule would refuse it, and the recipient takes requests from everyone: it
        /// is (`opening`: it starts) the recipient's request from the sender.
        case request(opening: Bool)

        /// What the send does to the pair's request.
        var requestChange: RequestChange {
            switch self {
            case .ordinary, .request(opening: false): .unchanged
            case .reply: .accept
            case .request(opening: true): .open
            }
        }
    }

    /// The may-message rule: a user may message someone who follows them, or someone who has
    /// sent them a message, or who accepted their request, unless a block stands between them.
    /// Nobody messages themselves. A recipient who takes message requests from everyone gets
    /// any other message as a request (API.md part 3); one who takes them from followers only
    /// (the default) refuses it, the first one as later ones of a request still pending.
    /// A sender the recipient blocked gets the answer of a missing permission
    /// (`dm_not_allowed`), so the block is not revealed; a sender who blocked the recipient
    /// gets `blocked` (they know, and unblocking is what to do).
    static func permission(sender: Int64, to recipient: RecipientFacts, named name: String) throws(APIError)
        -> Permission
    {
        if recipient.id == sender {
            throw APIError(
                .unprocessableContent, APIErrorCode.cannotMessageSelf, "You cannot send a message to yourself.")
        }
        if recipient.blockedBySender { throw APIError.youBlocked(name) }
        guard !recipient.blockedSender else { throw APIError.dmNotAllowed(name) }
        if recipient.followsSender || recipient.hasWrittenToSender || recipient.request == .accepted {
            return recipient.senderHasPendingRequest ? .reply : .ordinary
        }
        guard recipient.takesRequests else { throw APIError.dmNotAllowed(name) }
        return .request(opening: recipient.request == .none)
    }

    /// `permission`'s refusal, nil when the message may be sent.
    static func refusal(sender: Int64, to recipient: RecipientFacts, named name: String) -> APIError? {
        do {
            _ = try permission(sender: sender, to: recipient, named: name)
            return nil
        } catch { return error }
    }

    /// Whether the sender's typing reaches the recipient: only in an ordinary conversation,
    /// not while either has a request from the other pending (until the recipient accepts,
    /// the sender gets no typing from them, and a request's sender types to nobody).
    static func typingReaches(_ permission: Permission) -> Bool {
        permission == .ordinary
    }

    /// Whether a reader's `message.read` reaches the peer: not while the reader has a pending
    /// request from them (until the recipient accepts, the sender sees their messages as
    /// delivered at most).
    static func sendsReadReceipt(pendingRequest: Bool) -> Bool {
        !pendingRequest
    }

    /// Whether `existing` (stored under the same client id) is `new` sent again: the same
    /// text to the same recipient.
    static func isRetry(_ existing: Message, of new: NewMessage) -> Bool {
        existing.text == new.text && existing.envelope == new.envelope
            && Validation.usernameKey(existing.recipient) == new.recipientKey
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
    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws
        -> SendDecision
    {
        guard let recipient else { throw APIError.userNotFound(new.recipient) }
        do {
            let change = try Self.permission(sender: new.sender.id, to: recipient, named: new.recipient).requestChange
            try EncryptionRules.checkForm(sealed: new.envelope != nil, encrypted: recipient.encrypted)
            return .insert(change)
        } catch {
            guard let existing = try earlier() else { throw error }
            return .replay(try replay(existing, for: new))
        }
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
