import ChirpModels

/// A notification on `PostgresStorage.channel`: which instance sent it, and either the users
/// whose streams grew (nil: everyone) or one live-only event.
///
/// Payloads are text: `w|ORIGIN|1,2,3` (or `w|ORIGIN|*`) and
/// `l|ORIGIN|USER|MILLISECONDS|TYPE|JSON`, and `s|ORIGIN|USER` for ended sessions.
struct PostgresBusMessage: Equatable {
    enum Content: Equatable {
        case wake(users: [Int64]?)
        case live(userId: Int64, event: StoredEvent)
        /// Sessions of this user ended (logout elsewhere, password change, account deletion).
        case sessionsEnded(userId: Int64)
    }

    var origin: String
    var content: Content

    init(origin: String, content: Content) {
        self.origin = origin
        self.content = content
    }

    /// Parses a payload; nil for anything malformed.
    init?(payload: String) {
        let parts = payload.split(separator: "|", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        origin = String(parts[1])
        switch parts[0] {
        case "w" where parts.count == 3:
            if parts[2] == "*" {
                content = .wake(users: nil)
            } else {
                let users = parts[2].split(separator: ",").compactMap { Int64($0) }
                guard !users.isEmpty else { return nil }
                content = .wake(users: users)
            }
        case "s" where parts.count == 3:
            guard let userId = Int64(parts[2]) else { return nil }
            content = .sessionsEnded(userId: userId)
        case "l" where parts.count == 6:
            guard let userId = Int64(parts[2]), let milliseconds = Int64(parts[3]) else { return nil }
            content = .live(userId: userId, event: StoredEvent(
                seq: 0, type: String(parts[4]), createdAt: Timestamp(millisecondsSince1970: milliseconds), json: String(parts[5])))
        default:
            return nil
        }
    }

    /// The text sent with NOTIFY. A wake-up list too long for one notification wakes everyone.
    var payload: String {
        switch content {
        case .wake(let users?):
            let text = "w|\(origin)|" + users.map(String.init).joined(separator: ",")
            return text.utf8.count <= PostgresStorage.maxPayload ? text : "w|\(origin)|*"
        case .wake(nil):
            return "w|\(origin)|*"
        case .sessionsEnded(let userId):
            return "s|\(origin)|\(userId)"
        case .live(let userId, let event):
            return "l|\(origin)|\(userId)|\(event.createdAt.millisecondsSince1970)|\(event.type)|\(event.json)"
        }
    }
}
