import ChirpModels

/// The API's JSON for changes to stored messages, handed to storage as its
/// `MessageChangeEncoding`: the message as `MessageJSON` writes it (as a send's
/// `message.created` has it), the `message.deleted` notice, and the reactions as their column
/// holds them (the API's array, so a stored message reads back as it was sent).
struct MessageChangeJSON: MessageChangeEncoding {
    /// A direct message as `MessageJSON` writes it; a group message (whose fields it does not
    /// write) as `APIJSON` does.
    func updated(_ message: Message) -> String {
        guard message.group != nil else { return MessageJSON.encode(message) }
        return (try? APIJSON.encode(message)) ?? MessageJSON.encode(message)
    }

    /// The tombstone's id and people, and `removedByOperators: true` for a take-down (absent
    /// otherwise, as API.md says).
    func deleted(_ tombstone: Message) throws -> String {
        try APIJSON.encode(
            MessageDeletedNotice(
                id: tombstone.id, sender: tombstone.sender, recipient: tombstone.recipient,
                removedByOperators: tombstone.removedByOperators ? true : nil, group: tombstone.group))
    }

    func reactionsColumn(_ reactions: [MessageReaction]) -> String? {
        guard !reactions.isEmpty, let data = try? APIJSON.encoder().encode(reactions) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
