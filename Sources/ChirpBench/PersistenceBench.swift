import ArgumentParser
import ChirpPersistence
import Foundation

/// `chirp bench persistence`: inserts through a `Repository` in one transaction.
struct PersistenceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persistence",
        abstract: "Insert messages in one transaction through the persistence layer's repositories.")

    @Option(help: "Messages to insert.")
    var count = 10_000

    @Option(help: "Runs; the best and the median are printed.")
    var runs = 5

    /// A direct message as a client stores it.
    struct StoredMessage: StoredRecord {
        static let tableName = "messages"
        var id: String
        var conversation: String
        var sender: String
        var text: String
        var createdAt: Int64
        var state: String
    }

    static let migrations: [SQLiteStore.Migration] = [
        .init(
            name: "messages",
            sql: """
                CREATE TABLE messages (id TEXT PRIMARY KEY, conversation TEXT NOT NULL, sender TEXT NOT NULL,
                    text TEXT NOT NULL, createdAt INTEGER NOT NULL, state TEXT NOT NULL);
                CREATE INDEX messages_by_conversation ON messages(conversation, createdAt);
                """)
    ]

    func run() async throws {
        let messages = (0..<count).map { index in
            StoredMessage(
                id: UUID().uuidString, conversation: "peer\(index % 20)", sender: index % 2 == 0 ? "alice" : "bob",
                text: "message number \(index) with some ordinary text 👋", createdAt: 1_795_342_530_000 + Int64(index),
                state: "sent")
        }
        print("\(count) messages saved in one transaction through a Repository, \(runs) runs")
        for label in ["SQLiteRepository", "InMemoryRepository"] {
            var rates: [Double] = []
            for _ in 0..<runs {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "chirp-bench-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let repository: any Repository<StoredMessage> =
                    label == "InMemoryRepository"
                    ? InMemoryRepository<StoredMessage>()
                    : try SQLiteRepository<StoredMessage>(
                        store: SQLiteStore(
                            path: directory.appendingPathComponent("bench.sqlite").path, migrations: Self.migrations))
                let start = ContinuousClock.now
                try await repository.save(messages)
                let elapsed = (ContinuousClock.now - start).seconds
                guard try await repository.count(.all) == count else {
                    throw ValidationError("not every message was stored")
                }
                rates.append(Double(count) / elapsed)
            }
            rates.sort()
            let figures = String(
                format: "best %9.0f inserts/s   median %9.0f inserts/s", rates.last!, rates[rates.count / 2])
            print("  \(label.padding(toLength: 20, withPad: " ", startingAt: 0)) \(figures)")
        }
    }
}
