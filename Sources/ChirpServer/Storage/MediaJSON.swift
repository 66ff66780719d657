import ChirpModels
import Foundation

/// A message's media as stored with it (`messages.media_json`): the API's JSON of the list,
/// written once when the message is sent (media never change).
enum MediaJSON {
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

    /// The list; empty for `[]`, NULL or anything unreadable.
    static func decode(_ json: String?) -> [Media] {
        guard let json, json != "[]" else { return [] }
        return (try? JSONDecoder().decode([Media].self, from: Data(json.utf8))) ?? []
    }
}
