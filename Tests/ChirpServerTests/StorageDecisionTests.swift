import ChirpModels
import Foundation
import Logging
import Testing

@testable import ChirpServer

/// Both storages gather the same facts for a send and ask the same decisions in its
/// transaction: the may-message rule is never written in SQL. (PostgreSQL may ask the same
/// question twice: first from facts earlier batches read, then, when a fact changed or the
/// answer needs the stored message, from facts read again.)
@Suite("Storage asks, the rules decide")
struct StorageDecisionTests {
    @Test(arguments: StorageKind.available)
    func bothStoragesGatherTheSameFactsAndAskTheSameQuestions(kind: StorageKind) async throws {
        try await kind.withStorage { storage in
            let ann = try await storage.account("ann", tokenHash: [1])
            let bea = try await storage.account("Bea", tokenHash: [2])
            func send(_ from: Viewer, _ to: String, _ id: String, _ decisions: RecordingDecisions) async throws
                -> WriteOutcome<Message>
            {
                try await storage.sendMessage(
                    NewMessage(sender: from, recipient: to, clientMessageId: id, text: "hi", createdAt: .now()),
                    decisions: decisions)
            }
            func facts(_ follows: Bool, _ wrote: Bool) -> RecipientFacts {
                RecipientFacts(id: bea.id, username: "Bea", followsSender: follows, hasWrittenToSender: wrote)
            }

            let nobody = RecordingDecisions()
            await #expect(throws: RecordingDecisions.NoRecipient.self) {
                _ = try await send(ann, "nobody", "c0", nobody)
            }
            #expect(nobody.decisiveQuestions == [.init(recipient: nil)])

            let first = RecordingDecisions()
            let sent = try await send(ann, "bea", "c1", first)
            #expect(
                sent.created && first.decisiveQuestions == [.init(recipient: facts(false, false))],
                "neither follows nor wrote")
            #expect(sent.json == MessageJSON.encode(sent.value), "the event's JSON is the decisions' encoding")

            try await storage.follow(bea, "ann")
            let afterFollow = RecordingDecisions()
            _ = try await send(ann, "BEA", "c2", afterFollow)
            #expect(afterFollow.decisiveQuestions == [.init(recipient: facts(true, false))])
            #expect(
                try await storage.recipientFacts(sender: ann.id, recipientKey: "bea") == facts(true, false),
                "typing reads the same facts")

            _ = try await send(bea, "ann", "b1", RecordingDecisions())
            let afterReply = RecordingDecisions()
            let again = try await send(ann, "bea", "c1", afterReply)
            #expect(
                !again.created && again.value == sent.value, "the taken client id is answered by the decisions' replay")
            #expect(afterReply.decisiveQuestions == [.init(recipient: facts(true, true)), .init(replayed: sent.value)])

            let refusing = RecordingDecisions(refuseAll: true)
            let replayed = try await send(ann, "bea", "c2", refusing)
            #expect(
                !replayed.created && replayed.value.clientMessageId == "c2" && refusing.decisiveQuestions.count == 1)
            #expect(try await storage.latestMessages(ann, "bea").map(\.clientMessageId) == ["c1", "c2", "b1"])
        }
    }

    /// A viewer whose session the write confirms (`SessionConfirmation.bySendWrite`) is stored
    /// only while that session exists and has not expired at the send's time; otherwise the
    /// send fails with the decisions' `sessionEnded`, and nothing is stored.
    @Test(arguments: StorageKind.available)
    func bothStoragesStoreASendOnlyWhileTheSessionItsWriteConfirmsLives(kind: StorageKind) async throws {
        try await kind.withStorage { storage in
            var ann = try await storage.account("ann", tokenHash: [1])
            ann.sessionConfirmation = .bySendWrite
            let bea = try await storage.account("bea", tokenHash: [2])
            func send(_ id: String, at time: Timestamp = .now()) async throws -> WriteOutcome<Message> {
                try await storage.sendMessage(
                    NewMessage(sender: ann, recipient: "bea", clientMessageId: id, text: "hi", createdAt: time),
                    decisions: RecordingDecisions())
            }
            #expect(try await send("c1").created)
            let afterExpiry = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 2 * 86_400_000)
            await #expect(throws: RecordingDecisions.SessionEnded.self, "expired") {
                _ = try await send("c2", at: afterExpiry)
            }
            try await storage.deleteSession(tokenHash: [1])
            await #expect(throws: RecordingDecisions.SessionEnded.self, "ended") { _ = try await send("c3") }
            #expect(try await storage.latestMessages(bea, "ann").map(\.clientMessageId) == ["c1"])
        }
    }
}

/// A storage backend the tests can open: SQLite always, PostgreSQL when a test server is set.
enum StorageKind: String, CustomStringConvertible, Sendable {
    case sqlite, postgres

    static var available: [StorageKind] { TestDatabase.postgresAdminURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var description: String { rawValue }

    /// Runs `body` with a new, empty storage of this kind.
    func withStorage(_ body: @Sendable (any ChirpStorage) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let directory = TestServer.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try await body(try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite")))
        case .postgres:
            let settings = try #require(TestDatabase.freshPostgresSettings(poolSize: 2))
            try await TestDatabase.create(settings)
            let storage = try await PostgresStorage.open(settings: settings, logger: Logger(label: "chirp.test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await storage.run() }
                defer { group.cancelAll() }
                try await body(storage)
            }
            await TestDatabase.drop(settings)
        }
    }
}
