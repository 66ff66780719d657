import ChirpPersistence
import Foundation

enum Kind: String, Codable, Sendable { case draft, published }

struct Note: StoredRecord {
    static let tableName = "notes"
    var id: String
    var text: String
    var rank: Int
    var pinned: Bool
    var created: Date
    var tags: [String]
    var kind: Kind
    var score: Double?
    var attachment: Data?
}

enum Implementation: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, memory
    var description: String { rawValue }

    static let migrations: [SQLiteStore.Migration] = [
        .init(
            name: "notes",
            sql: """
                CREATE TABLE notes (
                    id TEXT PRIMARY KEY, text TEXT NOT NULL, rank INTEGER NOT NULL, pinned INTEGER NOT NULL,
                    created REAL NOT NULL, tags TEXT NOT NULL, kind TEXT NOT NULL, score REAL, attachment BLOB)
                """)
    ]

    func makeRepository() throws -> any Repository<Note> {
        switch self {
        case .memory:
            return InMemoryRepository<Note>()
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "persistence-\(UUID().uuidString)/db.sqlite"
            ).path
            return try SQLiteRepository<Note>(store: SQLiteStore(path: path, migrations: Self.migrations))
        }
    }
}

func note(
    _ id: String, rank: Int = 0, text: String? = nil, pinned: Bool = false, kind: Kind = .draft, score: Double? = nil
) -> Note {
    Note(
        id: id, text: text ?? "note \(id)", rank: rank, pinned: pinned,
        created: Date(timeIntervalSince1970: 1_795_342_530.125),
        tags: ["a", "b \(id)"], kind: kind, score: score, attachment: nil)
}
