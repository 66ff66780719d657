import ChirpModels

/// Reads a row of `EventSQL.stream` back as an `EventRow`, by column name.
enum EventColumns {
    static func eventRow(from row: some StorageRow) throws -> EventRow {
        let seq: Int64 = try row("e_seq")
        let type: String = try row("e_type")
        let createdAt: Timestamp = try row("e_created_at")
        guard let messageId = try row("e_message", as: Int64?.self) else {
            return EventRow(seq: seq, type: type, createdAt: createdAt, data: .json(try row("e_data")))
        }
        guard try !row.isNull("m_id") else {
            throw StorageError.inconsistent("event \(seq) points at message \(messageId), which is missing")
        }
        var message = try MessageColumns.message(from: row)
        if type == EventType.messageCreated {
            // As the send's live event carried it: read marks have events of their own.
            message.readByRecipient = false
            message.readCount = 0
        }
        return EventRow(seq: seq, type: type, createdAt: createdAt, data: .message(message))
    }
}
