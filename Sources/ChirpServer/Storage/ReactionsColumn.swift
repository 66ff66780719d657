import ChirpModels
import Foundation

/// A message's reactions as both storages keep them: one `reactions` text column holding the
/// API's JSON array (`[{"emoji","count","users"}]`, users in reaction order), NULL for none.
/// The column is rewritten only inside the transaction that changes it, with the message row
/// held, so it is the one place the reactions live. Its value is written as the change hands
/// it in (`MessageChangeEncoding.reactionsColumn`); this reads it back.
enum ReactionsColumn {
    static func decode(_ column: String?) -> [MessageReaction] {
        guard let column, !column.isEmpty else { return [] }
        return (try? JSONDecoder().decode([MessageReaction].self, from: Data(column.utf8))) ?? []
    }
}
