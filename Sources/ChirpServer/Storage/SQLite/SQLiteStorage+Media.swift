import ChirpModels
import GRDB

/// A send's media links on SQLite (its send is still SQLite's own).
extension SQLiteStorage {
    /// Links a new message to its media, in order (inside the send's transaction).
    static func attachMedia(_ db: Database, messageId: Int64, media: [Media]) throws {
        for (position, item) in media.enumerated() {
            guard let mediaId = Int64(item.id) else {
                throw StorageError.inconsistent("media id \(item.id) is not a number")
            }
            try db.cachedStatement(sql: "INSERT INTO message_media (message_id, position, media_id) VALUES (?, ?, ?)")
                .execute(arguments: [messageId, position, mediaId])
        }
    }
}
