import ChirpModels

/// A `Message` as the API's JSON (keys sorted, as `APIJSON.encoder()` writes them), built
/// by hand: a send encodes one inside the write transaction (`MessageRules.encode`), where the writer is the one
/// thread every send waits for, and Foundation's encoder costs several times more.
enum MessageJSON {
    static func encode(_ message: Message) -> String {
        var out = JSONTextWriter(capacity: 260 + message.text.utf8.count + message.media.count * 260)
        out.member(#"{"clientMessageId":"#, message.clientMessageId)
        out.member(#","createdAt":"#, message.createdAt.rfc3339)
        out.raw(message.deleted ? #","deleted":true,"editedAt":"# : #","deleted":false,"editedAt":"#)
        out.string(message.editedAt?.rfc3339)
        if let envelope = message.envelope { write(envelope, to: &out) }
        out.member(#","id":"#, message.id)
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
            out.member(#","emoji":"#, reaction.emoji)
            out.raw(#","users":["#)
            for (userIndex, user) in reaction.users.enumerated() {
                if userIndex > 0 { out.raw(",") }
                out.string(user)
            }
            out.raw("]}")
        }
        out.raw(#"],"readByRecipient":"#)
        out.raw(message.readByRecipient ? "true" : "false")
        out.member(#","recipient":"#, message.recipient)
        if message.removedByOperators { out.raw(#","removedByOperators":true"#) }
        out.member(#","replyTo":"#, message.replyTo)
        out.member(#","sender":"#, message.sender)
        out.member(#","text":"#, message.envelope == nil ? message.text : nil)
        out.raw("}")
        return out.text
    }

    /// Writes `,"envelope":{…}`, keys sorted.
    static func write(_ envelope: Envelope, to out: inout JSONTextWriter) {
        out.member(#","envelope":{"ciphertext":"#, envelope.ciphertext)
        out.member(#","commitment":"#, envelope.commitment)
        out.raw(#","keys":["#)
        for (index, key) in envelope.keys.enumerated() {
            out.member(index == 0 ? #"{"device":"# : #",{"device":"#, key.device)
            out.member(#","enc":"#, key.enc)
            out.member(#","wrappedKey":"#, key.wrappedKey)
            out.raw("}")
        }
        out.member(#"],"nonce":"#, envelope.nonce)
        out.member(#","senderDevice":"#, envelope.senderDevice)
        out.member(#","signature":"#, envelope.signature)
        out.raw(#","v":"#)
        out.raw(String(envelope.v))
        out.raw("}")
    }

    /// Writes a `Media` object, keys sorted.
    static func write(_ media: Media, to out: inout JSONTextWriter) {
        out.member(#"{"clientMediaId":"#, media.clientMediaId)
        out.member(#","contentType":"#, media.contentType)
        out.member(#","createdAt":"#, media.createdAt.rfc3339)
        out.member(#","filename":"#, media.filename)
        out.member(#","id":"#, media.id)
        out.member(#","sha256":"#, media.sha256)
        out.raw(#","size":"#)
        out.raw(String(media.size))
        out.raw("}")
    }
}
