import ChirpModels
import GRDB

/// The SQLite search index (`message_search`, FTS5): entries written in the caller's
/// transaction, and queries built from `SearchTerms` only, each word a quoted string, so no
/// user text is ever read as FTS syntax.
///
/// A message's words are indexed once for each of its two people, as `u<id>x<word>`: a
/// query is then the intersection of the viewer's own (short) lists of each word, not of the
/// whole server's list of a common word with the viewer's messages (20 ms at the 99th
/// percentile over a million messages the other way, 1–3 ms this way). `people` (`u<id>` of
/// both) narrows a query to one conversation.
enum SQLiteMessageSearch {
    /// Indexes a stored message.
    static func add(_ db: Database, messageId: Int64, text: String, sender: Int64, recipient: Int64) throws {
        try add(db, messageId: messageId, words: SearchTerms.words(text), sender: sender, recipient: recipient)
    }

    /// Indexes a stored message by its `SearchTerms` words (found before the write, off the
    /// writer's thread).
    static func add(_ db: Database, messageId: Int64, words: [String], sender: Int64, recipient: Int64) throws {
        guard !words.isEmpty else { return }
        var terms = ""
        terms.reserveCapacity(words.count * 16)
        for word in words {
            terms += "u\(sender)x\(word) u\(recipient)x\(word) "
        }
        try db.cachedStatement(sql: "INSERT INTO message_search (rowid, terms, people) VALUES (?, ?, ?)")
            .execute(arguments: [messageId, terms, "u\(sender) u\(recipient)"])
    }

    /// Takes a message out of the index (unsent, or about to be indexed again after an edit).
    static func remove(_ db: Database, messageId: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM message_search WHERE rowid = ?").execute(arguments: [messageId])
    }

    /// The FTS5 query for messages of `viewer` (with `peer` when given) holding every word.
    static func match(words: [String], viewer: Int64, peer: Int64?) -> String {
        var parts = words.map { "terms : \(quoted("u\(viewer)x\($0)"))" }
        if let peer { parts.append("people : \(quoted("u\(peer)"))") }
        return parts.joined(separator: " AND ")
    }

    /// An FTS5 string: in double quotes, a double quote doubled.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension SQLiteStorage {
    func searchMessages(viewer: Int64, peerKey: String?, words: [String], before: Int64, limit: Int) async throws -> [Message]? {
        try await read { db in
            var peer: Int64?
            if let peerKey {
                guard let peerId = try Self.userId(db, key: peerKey) else { return nil }
                peer = peerId
            }
            guard !words.isEmpty else { return [] }
            return try Self.fetchMessages(
                db, where: """
                    m.id IN (SELECT rowid FROM message_search WHERE message_search MATCH ? AND rowid < ?)
                    AND m.deleted = 0 ORDER BY m.id DESC LIMIT ?
                    """,
                [SQLiteMessageSearch.match(words: words, viewer: viewer, peer: peer), before, limit])
        }
    }
}
