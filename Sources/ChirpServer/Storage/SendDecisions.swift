import ChirpModels

/// The decisions a send asks for inside its transaction (implemented by `MessageRules`).
/// A storage may ask about one send more than once (PostgreSQL first decides from facts that
/// earlier batches read, and again when those changed), so answers must have no side effects.
protocol SendDecisions: Sendable {
    /// Given the recipient (nil: none) and, only if asked for, the sender's earlier message
    /// with the same client id: insert the message, answer with an earlier one, or throw.
    func decide(_ recipient: RecipientFacts?, for new: NewMessage, earlier: () throws -> Message?) throws
        -> SendDecision
    /// The client id turned out to be taken by `existing` (seen when inserting): answer with
    /// it, or throw.
    func replay(_ existing: Message, for new: NewMessage) throws -> Message
    /// The message as its event's data.
    func encode(_ message: Message) -> String
    /// What a send fails with when its sender's session, which its write was to confirm
    /// (`SessionConfirmation.bySendWrite`), is gone or expired.
    func sessionEnded() -> any Error
}

/// What a send does after `SendDecisions.decide`.
enum SendDecision: Sendable, Equatable {
    /// Store the message, changing the pair's request as given.
    case insert(RequestChange)
    case replay(Message)
}
