/// Numbers the events a batch of sends appends to each user's stream, on from the stream's
/// head before the batch, in the batch's order: for each message an event in its sender's
/// stream, then one in its recipient's. That is how `chirp_send_batch` numbers them, so the
/// sending instance and the instances its notification reaches agree with the database.
struct StreamNumbering {
    private var heads: [Int64: Int64]

    init(heads: [Int64: Int64]) {
        self.heads = heads
    }

    /// The next message's two events, its sender's and then its recipient's; throws when
    /// either user has no head.
    mutating func events(of message: PostgresBusMessage.NotifiedMessage, type: String) throws -> [AppendedEvent] {
        try [message.sender, message.recipient].map { user in
            AppendedEvent(
                userId: user,
                event: StoredEvent(seq: try next(user), type: type, createdAt: message.createdAt, json: message.json))
        }
    }

    private mutating func next(_ user: Int64) throws -> Int64 {
        guard let head = heads[user] else { throw StorageError.inconsistent("user \(user) is missing") }
        heads[user] = head + 1
        return head + 1
    }
}
