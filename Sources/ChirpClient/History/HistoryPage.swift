import ChirpDataCenter
import ChirpModels

/// One page of a conversation as the server answered it, with where it was read: what the
/// data center hands `LocalLedger.merge(history:)`, which stores its messages and adds its
/// stretch to the conversation's `HistoryStretches`. Never stored as such.
struct HistoryPage: DataCenterManaged {
    static let tableName = "history_pages"
    /// The peer (lowercased) and where the page was read.
    var id: String
    var peer: String
    var bound: Bound
    var limit: Int
    var items: [Message]

    /// `HistoryStretches.Bound` in a storable form.
    enum Bound: Codable, Sendable, Equatable {
        case newest, before(Int64), after(Int64)
        var stretchBound: HistoryStretches.Bound {
            switch self {
            case .newest: .newest
            case .before(let id): .before(id)
            case .after(let id): .after(id)
            }
        }
    }

    static func records(from response: Page<Message>, for request: ChirpEndpoints.ListMessages) -> [HistoryPage] {
        let bound: Bound =
            if let before = request.before.flatMap(Int64.init) {
                .before(before)
            } else if let after = request.after.flatMap(Int64.init) {
                .after(after)
            } else {
                .newest
            }
        let peer = request.peer.lowercased()
        return [
            HistoryPage(
                id: "\(peer)/\(bound)", peer: peer, bound: bound, limit: request.limit ?? 50, items: response.items)
        ]
    }
}
