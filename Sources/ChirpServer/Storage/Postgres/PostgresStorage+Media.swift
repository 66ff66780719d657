import ChirpModels
import PostgresNIO

extension PostgresStorage {
    func insertMedia(_ new: NewMedia) async throws -> WriteOutcome<Media> {
        try await write { scope in
            let inserted = try await scope.execute("""
                INSERT INTO media (owner_id, client_media_id, content_type, size, sha256, filename, created_at)
                VALUES (\(new.owner), \(new.clientMediaId), \(new.contentType), \(new.size), \(new.sha256), \(new.filename),
                    \(new.createdAt.millisecondsSince1970))
                ON CONFLICT (owner_id, client_media_id) DO NOTHING RETURNING 1
                """)
            guard let media = try await Self.fetchMedia(
                scope, where: "owner_id = $1 AND client_media_id = $2", Self.binds(new.owner, new.clientMediaId)).first
            else { throw StorageError.inconsistent("a media insert left no row") }
            return WriteOutcome(value: media, created: inserted > 0)
        }
    }

    func media(owner: Int64, clientMediaId: String) async throws -> Media? {
        try await read { scope in
            try await Self.fetchMedia(scope, where: "owner_id = $1 AND client_media_id = $2", Self.binds(owner, clientMediaId)).first
        }
    }

    func readableMedia(id: Int64, viewer: Int64) async throws -> Media? {
        try await read { scope in
            try await Self.fetchMedia(scope, where: """
                id = $1 AND (owner_id = $2 OR EXISTS (
                    SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                    WHERE mm.media_id = $1 AND NOT m.deleted AND (m.sender_id = $2 OR m.recipient_id = $2))
                    OR \(GroupSQL.mediaInMembersGroup(viewer: "$2")))
                """, Self.binds(id, viewer)).first
        }
    }

    func ownedMedia(owner: Int64, ids: [Int64]) async throws -> [Media] {
        guard !ids.isEmpty else { return [] }
        return try await read { scope in
            try await Self.fetchMedia(scope, where: "owner_id = $1 AND id = ANY($2)", Self.binds(owner, ids))
        }
    }

    func mediaBytes(owner: Int64) async throws -> Int64 {
        try await read { scope in
            try await scope.value("SELECT COALESCE(SUM(size), 0)::int8 FROM media WHERE owner_id = \(owner)", as: Int64.self) ?? 0
        }
    }

    func deleteUnreferencedMedia(before cutoff: Timestamp, limit: Int) async throws -> [String] {
        try await write { scope in
            let rows = try await scope.rows("""
                WITH gone AS (
                    DELETE FROM media WHERE id IN (
                        SELECT id FROM media md WHERE md.created_at < \(cutoff.millisecondsSince1970) AND NOT EXISTS (
                            SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                            WHERE mm.media_id = md.id AND NOT m.deleted)
                        LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING sha256)
                SELECT DISTINCT sha256 FROM gone
                """)
            var unused: [String] = []
            for row in rows {
                let sha: String = try row.value(0)
                let stillNamed = try await scope.value("SELECT EXISTS (SELECT 1 FROM media WHERE sha256 = \(sha))", as: Bool.self) ?? false
                if !stillNamed { unused.append(sha) }
            }
            return unused.sorted()
        }
    }

    func isStored(sha256: String) async throws -> Bool {
        try await read { scope in
            try await scope.value("SELECT EXISTS (SELECT 1 FROM media WHERE sha256 = \(sha256))", as: Bool.self) ?? false
        }
    }

    static func fetchMedia(_ scope: PostgresScope, where condition: String, _ binds: PostgresBindings) async throws -> [Media] {
        try await scope.rows(PostgresQuery(
            unsafeSQL: "SELECT id, client_media_id, content_type, size, sha256, filename, created_at FROM media WHERE \(condition)",
            binds: binds)
        ).map { row in
            Media(
                id: String(try row.value(0, as: Int64.self)), clientMediaId: try row.value(1), contentType: try row.value(2),
                size: try row.value(3), sha256: try row.value(4), filename: try row.value(5, as: String?.self),
                createdAt: Timestamp(millisecondsSince1970: try row.value(6)))
        }
    }
}
