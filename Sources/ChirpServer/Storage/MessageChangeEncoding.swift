import ChirpModels

/// The JSON a change to a stored message writes (an edit, a reaction, an unsend, a take-down),
/// asked by storage inside the change's transaction, as a send asks `SendDecisions.encode`
/// (implemented by `MessageChangeJSON`). Storage stores these texts as they are: it builds
/// no API JSON itself.
protocol MessageChangeEncoding: Sendable {
    /// `message.updated` data: the whole message as now stored.
    func updated(_ message: Message) -> String
    /// `message.deleted` data for `tombstone` (`removedByOperators` when the operators took it
    /// down).
    func deleted(_ tombstone: Message) throws -> String
    /// The `reactions` column's value (`ReactionsColumn`): nil for none.
    func reactionsColumn(_ reactions: [MessageReaction]) -> String?
}
