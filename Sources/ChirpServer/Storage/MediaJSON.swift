import ChirpModels
import Foundation

/// A message's media as stored with it (`messages.media_json`): the API's JSON of the list,
/// written once by the service that sends the message (`MediaListJSON`; media never change),
/// read back here.
enum MediaJSON {
    /// The list; empty for `[]`, NULL or anything unreadable.
    static func decode(_ json: String?) -> [Media] {
        guard let json, json != "[]" else { return [] }
        return (try? JSONDecoder().decode([Media].self, from: Data(json.utf8))) ?? []
    }
}
