import ChirpModels
import Foundation
import GRDB
import HummingbirdBcrypt

/// Fills a SQLite data directory with users and direct messages straight through the storage
/// (not over HTTP), for `chirp bench search`: `users` accounts `user0`, `user1`, … (password
/// `bench-password`), and `messages` messages between random pairs, 4–14 words each drawn
/// from a vocabulary with a Zipf-like spread (a few words very common, most rare), each
/// indexed for search as a send would index it.
package enum SearchBenchSeeder {
    /// The password of every seeded account.
    package static let password = "bench-password"

    /// The vocabulary: pronounceable made-up words, most common first.
    package static let vocabulary: [String] = {
        let starts = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "ch", "sh"]
        let vowels = ["a", "e", "i", "o", "u", "ai", "ou"]
        let ends = ["", "n", "r", "s", "l", "k", "m", "t"]
        var words: [String] = []
        for end in ends { for vowel in vowels { for start in starts { words.append(start + vowel + end) } } }
        return words  // 16 × 7 × 8 = 896 words
    }()

    /// Seeds `dataDirectory` (created if needed; must be new); calls `progress` with the
    /// messages stored so far.
    package static func seed(
        dataDirectory: URL, users: Int, messages: Int, seed: UInt64 = 42,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let storage = try SQLiteStorage(url: dataDirectory.appendingPathComponent("chirp.sqlite"))
        let hash = Bcrypt.hash(password, cost: 4)
        let start = Timestamp.now().millisecondsSince1970 - Int64(messages) * 10
        try await storage.write { db in
            for index in 0..<users {
                try db.execute(
                    sql:
                        "INSERT INTO users (username, username_key, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: ["user\(index)", "user\(index)", "user\(index)", hash, start])
            }
        }
        var generator = SplitMix(state: seed)
        let weights = vocabulary.indices.map { 1.0 / Double($0 + 1) }
        let cumulative = weights.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
        var stored = 0
        while stored < messages {
            let batch = min(20_000, messages - stored)
            var rows: [(sender: Int64, recipient: Int64, text: String)] = []
            rows.reserveCapacity(batch)
            for _ in 0..<batch {
                let sender = Int64(generator.next() % UInt64(users)) + 1
                var recipient = Int64(generator.next() % UInt64(max(users - 1, 1))) + 1
                if recipient >= sender, users > 1 { recipient += 1 }
                let count = 4 + Int(generator.next() % 11)
                let text = (0..<count).map { _ in word(generator.unit(), cumulative) }.joined(separator: " ")
                rows.append((sender, recipient, text))
            }
            let first = stored
            let batchRows = rows
            try await storage.write { db in
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT INTO messages (sender_id, recipient_id, user_lo, user_hi, client_message_id, text, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """)
                for (offset, row) in batchRows.enumerated() {
                    try insert.execute(arguments: [
                        row.sender, row.recipient, min(row.sender, row.recipient), max(row.sender, row.recipient),
                        "seed-\(first + offset)", row.text, start + Int64(first + offset) * 10,
                    ])
                    try SQLiteMessageSearch.add(
                        db, messageId: db.lastInsertedRowID, text: row.text, sender: row.sender,
                        recipient: row.recipient)
                }
                // Indexed here, so the indexer has nothing left of them to read.
                try db.execute(sql: "UPDATE search_index_mark SET indexed_through = (SELECT MAX(id) FROM messages)")
            }
            stored += batch
            progress(stored)
        }
    }

    /// A query of `count` words drawn as the messages draw them.
    package static func query(words count: Int, random unit: () -> Double) -> String {
        let weights = vocabulary.indices.map { 1.0 / Double($0 + 1) }
        let cumulative = weights.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
        return (0..<count).map { _ in word(unit(), cumulative) }.joined(separator: " ")
    }

    private static func word(_ unit: Double, _ cumulative: [Double]) -> String {
        let target = unit * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return vocabulary[low]
    }
}

/// A small deterministic random generator (SplitMix64), so a seed gives the same data.
package struct SplitMix: RandomNumberGenerator, Sendable {
    var state: UInt64

    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
