import ChirpModels

/// `MediaStore`, written once for both engines.
extension StorageEngine {
    func insertMedia(_ new: NewMedia) async throws -> WriteOutcome<Media> {
        try await writing { scope in
            let inserted = try await scope.run(
                """
                INSERT INTO media (owner_id, client_media_id, content_type, size, sha256, filename, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (owner_id, client_media_id) DO NOTHING
                """,
                new.owner, new.clientMediaId, new.contentType, new.size, new.sha256, new.filename, new.createdAt)
            guard
                let media = try await scope.media(
                    where: "owner_id = $1 AND client_media_id = $2", new.owner, new.clientMediaId
                ).first
            else { throw StorageError.inconsistent("a media insert left no row") }
            return WriteOutcome(value: media, created: inserted > 0)
        }
    }

    func media(owner: Int64, clientMediaId: String) async throws -> Media? {
        try await reading { scope in
            try await scope.media(where: "owner_id = $1 AND client_media_id = $2", owner, clientMediaId).first
        }
    }

    /// The viewer's own media, or media of a message they can read: a direct message they sent
    /// or received that is not deleted, or a group message inside their membership window.
    func readableMedia(id: Int64, viewer: Int64) async throws -> Media? {
        try await reading { scope in
            try await scope.media(
                where: """
                    id = $1 AND (owner_id = $2 OR EXISTS (
                        SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                        WHERE mm.media_id = $1 AND NOT m.deleted AND (m.sender_id = $2 OR m.recipient_id = $2))
                        OR \(GroupSQL.mediaInMembersGroup(viewer: "$2")))
                    """,
                id, viewer
            ).first
        }
    }

    func ownedMedia(owner: Int64, ids: [Int64]) async throws -> [Media] {
        guard !ids.isEmpty else { return [] }
        return try await reading { scope in
            try await scope.media(
                where: "owner_id = $1 AND \(scope.dialect.isAny("id", of: "$2"))", owner, SQLIdList(ids))
        }
    }

    func mediaBytes(owner: Int64) async throws -> Int64 {
        try await reading { scope in
            try await scope.queryValue(
                "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) AS bytes FROM media WHERE owner_id = $1", owner,
                as: Int64.self) ?? 0
        }
    }

    /// Deletes up to `limit` media made before `cutoff` that no live message links, and returns
    /// the hashes no media row names any more (their files may go).
    func deleteUnreferencedMedia(before cutoff: Timestamp, limit: Int) async throws -> [String] {
        try await writing { scope in
            let gone = try await scope.query(
                """
                DELETE FROM media WHERE id IN (
                    SELECT id FROM media md WHERE md.created_at < $1 AND NOT EXISTS (
                        SELECT 1 FROM message_media mm JOIN messages m ON m.id = mm.message_id
                        WHERE mm.media_id = md.id AND NOT m.deleted)
                    LIMIT $2\(scope.dialect.forUpdateSkipLocked))
                RETURNING sha256
                """,
                cutoff, limit
            ).map { try $0("sha256", as: String.self) }
            var unused: [String] = []
            for sha in Set(gone) where try await !scope.isStored(sha256: sha) { unused.append(sha) }
            return unused.sorted()
        }
    }

    func isStored(sha256: String) async throws -> Bool {
        try await reading { scope in try await scope.isStored(sha256: sha256) }
    }
}

extension StorageScope {
    /// The media rows matching `condition` (with `values` bound from `$1`).
    func media(where condition: String, _ values: any SQLBindable...) async throws -> [Media] {
        try await query(
            "SELECT id, client_media_id, content_type, size, sha256, filename, created_at FROM media WHERE \(condition)",
            values.map(\.sqlValue)
        ).map { row in
            Media(
                id: String(try row("id", as: Int64.self)), clientMediaId: try row("client_media_id"),
                contentType: try row("content_type"), size: try row("size"), sha256: try row("sha256"),
                filename: try row("filename"), createdAt: try row("created_at"))
        }
    }

    /// Whether some media row names a file with this hash.
    func isStored(sha256: String) async throws -> Bool {
        try await queryValue("SELECT EXISTS (SELECT 1 FROM media WHERE sha256 = $1) AS stored", sha256, as: Bool.self)
            ?? false
    }
}
