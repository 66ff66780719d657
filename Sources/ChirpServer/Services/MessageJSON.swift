import ChirpModels

/// A `Message` as the API's JSON (keys sorted, as `APIJSON.encoder()` writes them), built
/// by hand: a send encodes one inside the write transaction (`MessageRules.encode`), where the writer is the one
/// thread every send waits for, and Foundation's encoder costs several times more.
enum MessageJSON {
    static func encode(_ message: Message) -> String {
        var out = JSONTextWriter(capacity: 260 + message.text.utf8.count + message.media.count * 260)
        out.raw(#"{"clientMessageId":"#)
        out.string(message.clientMessageId)
        out.raw(#","createdAt":"#)
        out.string(message.createdAt.rfc3339)
        out.raw(message.deleted ? #","deleted":true,"editedAt":"# : #","deleted":false,"editedAt":"#)
        out.string(message.editedAt?.rfc3339)
        out.raw(#","id":"#)
        out.string(message.id)
        out.raw(#","media":["#)
        for (index, media) in message.media.enumerated() {
            if index > 0 { out.raw(",") }
            write(media, to: &out)
        }
        out.raw(#"],"reactions":["#)
        for (index, reaction) in message.reactions.enumerated() {
            if index > 0 { out.raw(",") }
            out.raw(#"{"count":"#)
            out.raw(String(reaction.count))
            out.raw(#","emoji":"#)
            out.string(reaction.emoji)
            out.raw(#","users":["#)
            for (userIndex, user) in reaction.users.enumerated() {
                if userIndex > 0 { out.raw(",") }
                out.string(user)
            }
            out.raw("]}")
        }
        out.raw(#"],"readByRecipient":"#)
        out.raw(message.readByRecipient ? "true" : "false")
        out.raw(#","recipient":"#)
        out.string(message.recipient)
        if message.removedByOperators { out.raw(#","removedByOperators":true"#) }
        out.raw(#","replyTo":"#)
        out.string(message.replyTo)
        out.raw(#","sender":"#)
        out.string(message.sender)
        out.raw(#","text":"#)
        out.string(message.text)
        out.raw("}")
        return out.text
    }

    /// Writes a `Media` object, keys sorted.
    static func write(_ media: Media, to out: inout JSONTextWriter) {
        out.raw(#"{"clientMediaId":"#)
        out.string(media.clientMediaId)
        out.raw(#","contentType":"#)
        out.string(media.contentType)
        out.raw(#","createdAt":"#)
        out.string(media.createdAt.rfc3339)
        out.raw(#","filename":"#)
        out.string(media.filename)
        out.raw(#","id":"#)
        out.string(media.id)
        out.raw(#","sha256":"#)
        out.string(media.sha256)
        out.raw(#","size":"#)
        out.raw(String(media.size))
        out.raw("}")
    }
}
