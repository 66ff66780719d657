import ChirpModels
import GRDB

/// The SQLite search index (`message_search`, FTS5): entries written in the caller's
/// transaction, and queries built from `SearchTerms` only, each word a quoted string, so no
/// user text is ever read as FTS syntax.
///
/// A send does not index its message: `SQLiteSearchIndexer` indexes the messages above the
/// index's mark (`search_index_mark`) a chunk at a time, after they were stored, and moves the
/// mark. A search reads the index for the messages up to the mark and the few stored above it
/// from `messages` (`searchMessages`), in one read, so a message is found as soon as its send
/// is acknowledged. An edit or an unsend changes the index only for a message up to the mark;
/// one above it is indexed later as it is then.
///
/// A message's words are indexed once for each of its two people, as `u<id>x<word>`: a
/// query is then the intersection of the viewer's own (short) lists of each word, not of the
/// whole server's list of a common word with the viewer's messages (20 ms at the 99th
/// percentile over a million messages the other way, 1–3 ms this way). The query also names
/// the viewer as the message's sender or recipient, and the peer's conversation when asked:
/// the index narrows, the condition decides whose messages come back. (Until `v20` each
/// message also held `p<id>` of both people, which narrowed to a conversation inside the
/// index: 2 of a 6-word message's 14 terms, about 9,000 instructions a send, for a narrowing
/// the viewer's own word lists already make short.)
///
/// A group message's words are indexed once, for its group, as `g<group>x<word>`: its members
/// change, so a query names the viewer's groups (`groupMatch`) and the membership window
/// decides in SQL which of their messages come back (`searchGroupMessages`).
///
/// The table keeps no copy of the text (`content=''`) and no word positions (`detail=none`):
/// a query asks only which messages hold every word, and the send path writes a third less
/// per message. An entry is removed with FTS5's `delete` command and the terms it was indexed
/// with, which `terms` makes again from the message's stored text: so a change to
/// `SearchTerms` needs a migration that indexes every message again.
enum SQLiteMessageSearch {
    /// The index's definition (the `v10-search-ascii` migration). The `ascii` tokenizer cuts
    /// only at ASCII characters that are not letters or digits, which `SearchTerms` never
    /// leaves in a word, so each indexed term is one token whatever letters it holds: the
    /// tokenizer and Swift's word folding agree by construction. (v9's `unicode61` cut words
    /// at characters that were marks in its Unicode tables but letters in Swift's, such as
    /// New Tai Lue's U+19B0, so a word written by someone else could end in another user's
    /// `u<id>x` term.)
    static let createTable = """
        CREATE VIRTUAL TABLE message_search USING fts5(
            terms, content = '', detail = none, columnsize = 0, tokenize = 'ascii')
        """

    /// The index's merging (`v20`): FTS5 merges its segments in fours by default, which cost
    /// about 13,000 instructions a send's message (`sqlite3` under callgrind, 10,000 messages
    /// in commits of 16); in eights it costs a search a few more segments to read.
    static let mergeInEights = "INSERT INTO message_search (message_search, rank) VALUES ('automerge', 8)"

    /// The index's merging since `v26`: none while a segment is written (FTS5's automerge ran
    /// inside the indexer's write job and held the writer 4–11 ms when it merged, against 0.8 ms
    /// for a chunk without one, issue 53), and levels of eight merged by the indexer
    /// (`mergeStep`) in jobs of their own, each bounded by `mergePages`.
    static let mergesByTheIndexer = [
        "INSERT INTO message_search (message_search, rank) VALUES ('automerge', 0)",
        "INSERT INTO message_search (message_search, rank) VALUES ('usermerge', 8)",
    ]

    /// The pages of merged index one `mergeStep` writes at most (FTS5 pages of about 4 KB).
    static let mergePages = 16

    /// Merges the index a little, if a level holds eight segments or a merge is under way;
    /// returns whether it did any work (FTS5 counts two changes or more when it did).
    static func mergeStep(_ db: Database) throws -> Bool {
        let before = db.totalChangesCount
        try db.cachedStatement(sql: "INSERT INTO message_search (message_search, rank) VALUES ('merge', ?)")
            .execute(arguments: [mergePages])
        return db.totalChangesCount - before >= 2
    }

    /// Whose terms a message's words are indexed under: a direct message's two people, or a group.
    enum Owner: Sendable, Equatable {
        case people(sender: Int64, recipient: Int64)
        case group(Int64)

        /// The owner of a `messages` row, from its recipient and group columns.
        init(sender: Int64, recipient: Int64?, group: Int64?) {
            self = group.map(Owner.group) ?? .people(sender: sender, recipient: recipient ?? sender)
        }
    }

    /// Indexes a stored message.
    static func add(_ db: Database, messageId: Int64, text: String, sender: Int64, recipient: Int64) throws {
        try add(db, messageId: messageId, text: text, owner: .people(sender: sender, recipient: recipient))
    }

    /// Indexes a stored message of either kind.
    static func add(_ db: Database, messageId: Int64, text: String, owner: Owner) throws {
        try write(db, messageId: messageId, words: SearchTerms.words(text), owner: owner, removing: false)
    }

    /// Takes a message out of the index (unsent, or about to be indexed again after an edit):
    /// `text` is the text it was indexed with, the one stored until now.
    static func remove(_ db: Database, messageId: Int64, text: String, sender: Int64, recipient: Int64) throws {
        try remove(db, messageId: messageId, text: text, owner: .people(sender: sender, recipient: recipient))
    }

    /// Takes a message of either kind out of the index.
    static func remove(_ db: Database, messageId: Int64, text: String, owner: Owner) throws {
        try write(db, messageId: messageId, words: SearchTerms.words(text), owner: owner, removing: true)
    }

    /// Adds a message's entry, or with `removing` takes it out (FTS5's `delete` with the terms
    /// it was added with); a message without words has none.
    private static func write(_ db: Database, messageId: Int64, words: [String], owner: Owner, removing: Bool) throws {
        guard !words.isEmpty else { return }
        try db.cachedStatement(
            sql: removing
                ? "INSERT INTO message_search (message_search, rowid, terms) VALUES ('delete', ?, ?)"
                : "INSERT INTO message_search (rowid, terms) VALUES (?, ?)"
        ).execute(arguments: [messageId, terms(words: words, owner: owner)])
    }

    /// A message as the index holds it: what `remove` needs.
    struct Entry: Sendable {
        let messageId: Int64
        let text: String
        let owner: Owner

        /// Takes the entry out of the index.
        func remove(from db: Database) throws {
            try SQLiteMessageSearch.remove(db, messageId: messageId, text: text, owner: owner)
        }
    }

    /// The messages matching `condition` (SQL over `messages`, its arguments `arguments`) that
    /// the index holds: not unsent, at or below the mark, with the text they were indexed with.
    static func entries(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [Entry] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, text, sender_id, recipient_id, group_id FROM messages WHERE deleted = 0
                    AND id <= (SELECT indexed_through FROM search_index_mark) AND (\(condition))
                """,
            arguments: arguments
        ).map {
            Entry(
                messageId: $0["id"], text: $0["text"],
                owner: Owner(sender: $0["sender_id"], recipient: $0["recipient_id"], group: $0["group_id"]))
        }
    }

    /// The id up to which every message has been read by the indexer.
    static func indexedThrough(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT indexed_through FROM search_index_mark")) ?? 0
    }

    /// Indexes the next `limit` messages above the mark (an unsent one is read and skipped) and
    /// moves the mark past them; returns how many were read. All in the caller's savepoint, so
    /// FTS5 writes them as one segment.
    static func indexNext(_ db: Database, limit: Int) throws -> Int {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT id, text, sender_id, recipient_id, group_id, deleted FROM messages WHERE id > ? ORDER BY id LIMIT ?"
            ),
            arguments: [try indexedThrough(db), limit])
        guard let last = rows.last else { return 0 }
        for row in rows where row["deleted"] as Bool == false {
            let owner = Owner(sender: row["sender_id"], recipient: row["recipient_id"], group: row["group_id"])
            try add(db, messageId: row["id"], text: row["text"], owner: owner)
        }
        try db.cachedStatement(sql: "UPDATE search_index_mark SET indexed_through = ?").execute(arguments: [
            last["id"] as Int64
        ])
        return rows.count
    }

    /// What the index holds for a message of `owner`: each word under each of the owner's
    /// prefixes, a direct message's two people (`u<id>x`) or a group (`g<id>x`).
    /// Built as bytes: string interpolation per word cost about 15,000 instructions a message
    /// (`scripts/count-send-instructions`), on the writer's thread.
    static func terms(words: [String], owner: Owner) -> String {
        let prefixes =
            switch owner {
            case .people(let sender, let recipient): [Array("u\(sender)x".utf8), Array("u\(recipient)x".utf8)]
            case .group(let group): [Array("g\(group)x".utf8)]
            }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.reduce(0) { $0 + $1.utf8.count + 12 } * prefixes.count)
        for word in words {
            for prefix in prefixes {
                if !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
                bytes.append(contentsOf: prefix)
                bytes.append(contentsOf: word.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `terms` of a direct message between `sender` and `recipient`.
    static func terms(words: [String], sender: Int64, recipient: Int64) -> String {
        terms(words: words, owner: .people(sender: sender, recipient: recipient))
    }

    /// A search's answer, newest first, ids below `before`, at most `limit`, direct or group
    /// alike: the messages above the index's mark (`aboveMark(mark)`: all of them below
    /// `before`, newest first) whose words hold every one of `words`, matched here, then the
    /// index's answer for the rest (`indexed(below, limit)`), in the caller's one read.
    static func search(
        _ db: Database, words: [String], before: Int64, limit: Int,
        aboveMark: (_ mark: Int64) throws -> [Message], indexed: (_ below: Int64, _ limit: Int) throws -> [Message]
    ) throws -> [Message] {
        let mark = try indexedThrough(db)
        var found: [Message] = []
        if before > mark + 1 {
            let wanted = Set(words)
            found = try aboveMark(mark).lazy.filter { wanted.isSubset(of: SearchTerms.words($0.text)) }.prefix(limit)
                .map { $0 }
        }
        guard found.count < limit else { return found }
        return found + (try indexed(min(before, mark + 1), limit - found.count))
    }

    /// The FTS5 query for messages of `viewer` holding every word.
    static func match(words: [String], viewer: Int64) -> String {
        words.map { quoted("u\(viewer)x\($0)") }.joined(separator: " AND ")
    }

    /// The FTS5 query for messages of any of `groups` holding every word.
    static func groupMatch(words: [String], groups: [Int64]) -> String {
        groups.map { group in "(" + words.map { quoted("g\(group)x\($0)") }.joined(separator: " AND ") + ")" }
            .joined(separator: " OR ")
    }

    /// An FTS5 string: in double quotes, a double quote doubled.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension SQLiteStorage {
    /// The viewer's messages (with `peerKey` when given) holding every one of `words`, newest
    /// first, ids below `before`: those above the index's mark read from `messages` and matched
    /// here, then the index's answer for the rest, in one read.
    func searchMessages(viewer: Int64, peerKey: String?, words: [String], before: Int64, limit: Int) async throws
        -> [Message]?
    {
        try await read { db in
            var peer: Int64?
            if let peerKey {
                guard let peerId = try Self.userId(db, key: peerKey) else { return nil }
                peer = peerId
            }
            guard !words.isEmpty else { return [] }
            // One conversation's pair when a peer is named, else the viewer on either side;
            // `prefix` before a column (`+` for the few rows above the mark, read by id rather
            // than through the people's indexes).
            let people = peer.map { [min(viewer, $0), max(viewer, $0)] } ?? [viewer, viewer]
            func whose(_ prefix: String) -> String {
                peer == nil
                    ? "(\(prefix)m.sender_id = ? OR \(prefix)m.recipient_id = ?)"
                    : "\(prefix)m.user_lo = ? AND \(prefix)m.user_hi = ?"
            }
            return try SQLiteMessageSearch.search(db, words: words, before: before, limit: limit) { mark in
                try Self.fetchMessages(
                    db, where: "m.id > ? AND m.id < ? AND \(whose("+")) AND m.deleted = 0 ORDER BY m.id DESC",
                    StatementArguments([mark, before] + people))
            } indexed: { below, remaining in
                let match: [(any DatabaseValueConvertible)?] = [
                    SQLiteMessageSearch.match(words: words, viewer: viewer), below,
                ]
                return try Self.fetchMessages(
                    db,
                    where: """
                        m.id IN (SELECT rowid FROM message_search WHERE message_search MATCH ? AND rowid < ?)
                        AND \(whose(""))
                        AND m.deleted = 0 ORDER BY m.id DESC LIMIT ?
                        """,
                    StatementArguments(match + people.map { $0 } + [remaining]))
            }
        }
    }
}
