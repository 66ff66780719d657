import ChirpModels

/// A notification on `PostgresStorage.channel`: which instance sent it, and either the users
/// whose streams grew (nil: everyone), the events a batch of sends appended, or one live-only
/// event.
///
/// Payloads are text: `w|ORIGIN|1,2,3` (or `w|ORIGIN|*`),
/// `e|ORIGIN|TYPE|SENDER,RECIPIENT,MILLISECONDS,BYTES,…|JSON…|USER,…|HEAD,…` (each message's
/// JSON, BYTES long, one after the other; then each user's stream head before the batch),
/// `l|ORIGIN|USER|MILLISECONDS|TYPE|JSON`, and `s|ORIGIN|USER` for ended sessions.
struct PostgresBusMessage: Equatable {
    enum Content: Equatable {
        case wake(users: [Int64]?)
        /// The messages a batch of sends stored, each an event in its sender's stream and then
        /// one in its recipient's, numbered on from each user's `heads` (`StreamNumbering`).
        case appended(type: String, messages: [NotifiedMessage], heads: [Int64: Int64])
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

    /// One stored message as an events notification carries it.
    struct NotifiedMessage: Equatable {
        var sender: Int64
        var recipient: Int64
        var createdAt: Timestamp
        var json: String
    }

    /// Parses a payload; nil for anything malformed.
    init?(payload: String) {
        if payload.hasPrefix("e|") {
            guard let parsed = Self.parseAppended(payload) else { return nil }
            self = parsed
            return
        }
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
            content = .live(
                userId: userId,
                event: StoredEvent(
                    seq: 0, type: String(parts[4]), createdAt: Timestamp(millisecondsSince1970: milliseconds),
                    json: String(parts[5])))
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
        case .appended(let type, let messages, let heads):
            let users = heads.keys.sorted()
            return Self.appendedPrefix(origin: origin, type: type, messages: messages)
                + users.map(String.init).joined(separator: ",") + "|"
                + users.map { String(heads[$0]!) }.joined(separator: ",")
        }
    }

    /// Whether `payload` came from the instance `origin`, read without parsing the rest.
    static func payload(_ payload: String, isFrom origin: String) -> Bool {
        payload.utf8.dropFirst(2).starts(with: (origin + "|").utf8)
    }

    /// The events notification of a batch without its stream heads, which `chirp_send_batch`
    /// appends; nil when the whole would not fit in one notification (send a wake-up instead).
    static func appendedPayload(origin: String, type: String, messages: [NotifiedMessage]) -> String? {
        let users = Set(messages.flatMap { [$0.sender, $0.recipient] }).count
        let text = appendedPrefix(origin: origin, type: type, messages: messages)
        // A user id and a head take at most 19 digits each, plus their separators.
        return text.utf8.count + users * 40 <= PostgresStorage.maxPayload ? text : nil
    }

    private static func appendedPrefix(origin: String, type: String, messages: [NotifiedMessage]) -> String {
        let headers = messages.map {
            "\($0.sender),\($0.recipient),\($0.createdAt.millisecondsSince1970),\($0.json.utf8.count)"
        }
        return "e|\(origin)|\(type)|" + headers.joined(separator: ",") + "|" + messages.map(\.json).joined() + "|"
    }

    private static func parseAppended(_ payload: String) -> PostgresBusMessage? {
        let parts = payload.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5 else { return nil }
        let numbers = parts[3].split(separator: ",").map { Int64($0) }
        guard !numbers.isEmpty, numbers.count % 4 == 0, !numbers.contains(nil) else { return nil }
        var rest = parts[4].utf8
        var messages: [NotifiedMessage] = []
        for start in stride(from: 0, to: numbers.count, by: 4) {
            let length = Int(numbers[start + 3]!)
            guard length >= 0, rest.count >= length, let json = String(rest.prefix(length)) else { return nil }
            rest = rest.dropFirst(length)
            messages.append(
                NotifiedMessage(
                    sender: numbers[start]!, recipient: numbers[start + 1]!,
                    createdAt: Timestamp(millisecondsSince1970: numbers[start + 2]!), json: json))
        }
        let tail = Substring(rest).split(separator: "|", omittingEmptySubsequences: false)
        guard tail.count == 3, tail[0].isEmpty else { return nil }
        let users = tail[1].split(separator: ",").map { Int64($0) }
        let heads = tail[2].split(separator: ",").map { Int64($0) }
        guard users.count == heads.count, !users.contains(nil), !heads.contains(nil) else { return nil }
        let headOf = Dictionary(zip(users.map { $0! }, heads.map { $0! }), uniquingKeysWith: { first, _ in first })
        // Every user of the batch has a head, so `appendedEvents` can number them all.
        guard messages.allSatisfy({ headOf[$0.sender] != nil && headOf[$0.recipient] != nil }) else { return nil }
        return PostgresBusMessage(
            origin: String(parts[1]), content: .appended(type: String(parts[2]), messages: messages, heads: headOf))
    }

    /// The events of an `.appended` message, numbered; nil for other content, or when a user
    /// has no head.
    var appendedEvents: [AppendedEvent]? {
        guard case .appended(let type, let messages, let heads) = content else { return nil }
        var numbering = StreamNumbering(heads: heads)
        return try? messages.flatMap { try numbering.events(of: $0, type: type) }
    }
}
