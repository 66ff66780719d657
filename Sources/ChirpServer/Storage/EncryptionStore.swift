import ChirpModels

/// Turning a direct conversation's encryption on (issue 55; a group's is a `GroupChange`).
/// Storage gathers the facts; `EncryptionService` decides through the decisions it hands in.
protocol EncryptionStore: Sendable {
    /// Turns the direct conversation of `viewer` and the user `peerKey` names encrypted, if
    /// `decisions` allow it, and tells both people's streams (`conversation.updated`, when
    /// their conversation has begun).
    func encryptDirect(viewer: Int64, peerKey: String, at: Timestamp, decisions: some EncryptionDecisions)
        async throws -> WriteOutcome<Bool>?
}

/// The rules the direct switch asks, inside its transaction.
protocol EncryptionDecisions: Sendable {
    /// Given the peer's facts as seen from the viewer and which of the two have no device,
    /// by username: allow, or throw.
    func mayEncrypt(_ peer: RecipientFacts, withoutDevices: [String]) throws
    /// A conversation as its `conversation.updated` data.
    func encode(_ conversation: Conversation) throws -> String
}
