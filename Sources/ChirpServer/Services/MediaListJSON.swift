import ChirpModels

/// A message's media list as the API's JSON, written once when the message is sent and stored
/// with it (`NewMessage.mediaJSON`; read back by `MediaJSON`).
enum MediaListJSON {
    static func encode(_ media: [Media]) -> String {
        if media.isEmpty { return "[]" }
        var out = JSONTextWriter(capacity: 2 + media.count * 260)
        out.raw("[")
        for (index, item) in media.enumerated() {
            if index > 0 { out.raw(",") }
            MessageJSON.write(item, to: &out)
        }
        out.raw("]")
        return out.text
    }
}
