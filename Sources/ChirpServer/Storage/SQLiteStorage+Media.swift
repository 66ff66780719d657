import ChirpModels
import GRDB

extension SQLiteStorage {
    func insertMedia(_ new: NewMedia) async throws -> WriteOutcome<Media> {
        try await write { db in
            try db.cachedStatement(sql: """
                INSERT INTO media (owner_id, client_media_id, content_type, size, sha256, filename, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner_id, client_media_id) DO NOTHING
                """).execute(arguments: [
                    new.owner, new.clientMediaId, new.contentType, new.size, new.sha256, new.filename,
                    new.createdAt.millisecondsSince1970,
                ])
            let created = db.changesCount == 1
            guard let media = try Self.fetchMedia(db, where: "owner_id = ? AND client_media_id = ?", [new.owner, new.clientMediaId]).first
            else { throw StorageError.inconsistent("a media insert left no row") }
            return WriteOutcome(value: media, created: created)
        }
    }

    func media(owner: Int64, clientMediaId: String) async throws -> Media? {
        try await read { db in
            try Self.fetchMedia(db, where: "owner_id = ? AND client_media_id = ?", [owner, clientMediaId]).first
        }
    }

    func readableMedia(id: Int64, viewer: Int64) async throws -> Media? {
        try await read { db in
            try Self.fetchMedia(db, where: """
                id = ?1 AND (owner_id = ?2 OR EXISTS (
                    SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                    WHERE mm.media_id = ?1 AND m.deleted = 0 AND (m.sender_id = ?2 OR m.recipient_id = ?2))
                    OR \(GroupSQL.mediaInMembersGroup(viewer: "?2")))
                """, [id, viewer]).first
        }
    }

    func ownedMedia(owner: Int64, ids: [Int64]) async throws -> [Media] {
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try Self.fetchMedia(db, where: "owner_id = ? AND id IN (\(marks))", StatementArguments([owner] + ids))
        }
    }

    func mediaBytes(owner: Int64) async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(size), 0) FROM media WHERE owner_id = ?"), arguments: [owner]) ?? 0
        }
    }

    func deleteUnreferencedMedia(before cutoff: Timestamp, limit: Int) async throws -> [String] {
        try await write { db in
            let shas = try String.fetchAll(db.cachedStatement(sql: """
                DELETE FROM media WHERE id IN (
                    SELECT id FROM media md WHERE md.created_at < ? AND NOT EXISTS (
                        SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                        WHERE mm.media_id = md.id AND m.deleted = 0)
                    LIMIT ?)
                RETURNING sha256
                """), arguments: [cutoff.millisecondsSince1970, limit])
            return try Set(shas).filter { sha in
                try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM media WHERE sha256 = ?)"), arguments: [sha]) != true
            }.sorted()
        }
    }

    func isStored(sha256: String) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM media WHERE sha256 = ?)"), arguments: [sha256]) == true
        }
    }

    // MARK: helpers

    static func fetchMedia(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [Media] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT id, client_media_id, content_type, size, sha256, filename, created_at FROM media WHERE \(condition)
                """),
            arguments: arguments
        ).map { row in
            let id: Int64 = row[0]
            return Media(
                id: String(id), clientMediaId: row[1], contentType: row[2], size: row[3], sha256: row[4], filename: row[5],
                createdAt: Timestamp(millisecondsSince1970: row[6]))
        }
    }

    /// Links a new message to its media, in order (inside the send's transaction).
    static func attachMedia(_ db: Database, messageId: Int64, media: [Media]) throws {
        for (position, item) in media.enumerated() {
            guard let mediaId = Int64(item.id) else { throw StorageError.inconsistent("media id \(item.id) is not a number") }
            try db.cachedStatement(sql: "INSERT INTO message_media (message_id, position, media_id) VALUES (?, ?, ?)")
                .execute(arguments: [messageId, position, mediaId])
        }
    }
}
