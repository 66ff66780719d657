import ChirpModels
import Foundation

/// A message's media as stored with it (`messages.media_json`): the API's JSON of the list,
/// written once when the message is sent (media never change).
enum MediaJSON {
    static func encode(_ media: [Media]) -> String {
        var out = "["
        for (index, item) in media.enumerated() {
            if index > 0 { out += "," }
            MessageJSON.appendMedia(item, to: &out)
        }
        return out + "]"
    }

    /// The list; empty for `[]`, NULL or anything unreadable.
    static func decode(_ json: String?) -> [Media] {
        guard let json, json != "[]" else { return [] }
        return (try? JSONDecoder().decode([Media].self, from: Data(json.utf8))) ?? []
    }
}
