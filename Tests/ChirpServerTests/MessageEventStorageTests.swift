import ChirpModels
import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// A message's `message.created` events point at the message instead of holding its JSON;
/// what a stream replays must not change because of it, and events stored by earlier versions
/// (JSON in the row) still read back as they were.
@Suite("Message events in SQLite")
struct MessageEventStorageTests {
    @Test func aReplayedMessageEventIsTheBytesTheSendReturnedEvenAfterItWasRead() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let (ann, bo) = try await Self.pair(storage)

        // A text that needs escaping, so the rebuilt JSON is not trivially the same.
        let sent = try await storage.send(
            NewMessage(
                sender: ann, recipient: "bea", clientMessageId: "c-1", text: "\"hi\"\n\\ é 🐦",
                createdAt: Timestamp(millisecondsSince1970: 1_790_000_000_123)))
        let json = try #require(sent.json)
        let marked = try await storage.markRead(
            reader: bo.id, peerKey: "ann", upTo: Int64(sent.value.id)!, at: .now(), receipt: { _, _ in "{}" })
        guard case .marked = marked else {
            Issue.record("the message was not marked read: \(marked)")
            return
        }

        let row = try await storage.pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT data, message_id FROM events WHERE user_id = ? AND type = ?",
                arguments: [bo.id, EventType.messageCreated])
        }
        #expect(row?["data"] == "", "the row holds a reference, not a copy of the JSON")
        #expect(row?["message_id"] == Int64(sent.value.id))

        let events = EventService(store: storage, hub: EventHub(), maxWait: 0)
        for viewer in [ann, bo] {
            let replay = try await events.read(userId: viewer.id, since: 0, limit: 10).events
            let created = try #require(replay.first { $0.type == EventType.messageCreated })
            #expect(created.json == json, "\(viewer.username)'s replay equals the live event")
            #expect(created.createdAt == sent.value.createdAt)
        }
        let decoded = try JSONDecoder().decode(Message.self, from: Data(json.utf8))
        #expect(decoded.readByRecipient == false, "the event is the message as sent")
        #expect(decoded.text == "\"hi\"\n\\ é 🐦")
        #expect(decoded.recipient == "Bea", "the recipient as registered, not as the send spelled it")
    }

    @Test func eventsStoredWithTheirJSONByAnEarlierVersionReadBackUnchanged() async throws {
        // The schema before message events became references, with one event written the old way.
        let legacy = try LegacySQLiteDatabase(migratedUpTo: "v2-client-logs")
        defer { legacy.remove() }
        let (url, earlier) = (legacy.url, legacy.queue)
        let oldJSON =
            #"{"clientMessageId":"old","createdAt":"2026-01-01T00:00:00.000Z","id":"7","readByRecipient":false,"recipient":"bo","sender":"ann","text":"from before"}"#
        try await earlier.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (username, username_key, display_name, password_hash, created_at, last_seq)
                    VALUES ('ann', 'ann', 'Ann', 'x', 0, 1);
                    """)
            try db.execute(
                sql: "INSERT INTO events (user_id, seq, type, created_at, data) VALUES (1, 1, ?, 1767225600000, ?)",
                arguments: [EventType.messageCreated, oldJSON])
        }
        try earlier.close()

        let storage = try SQLiteStorage(url: url)
        let slice = try await storage.events(userId: 1, since: 0, limit: 10)
        #expect(slice.events.map(\.data) == [.json(oldJSON)])
        #expect(slice.head == 1)
    }

    @Test func aWriteThatFailsAfterAppendingGivesItsSeqsBack() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let (ann, bo) = try await Self.pair(storage)
        let headBefore = try await storage.events(userId: ann.id, since: 0, limit: 100).head

        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await storage.writer.write { db in
                _ = try SQLiteStorage.appendEvents(db, userIds: [ann.id, bo.id], type: "test", json: "{}", at: .now())
                throw Refused()
            }
        }
        #expect(try await storage.events(userId: ann.id, since: 0, limit: 100).head == headBefore)

        let next = try await storage.writer.write { db in
            try SQLiteStorage.appendEvents(db, userIds: [bo.id, ann.id], type: "test", json: "{}", at: .now())
        }
        #expect(next.map(\.userId) == [bo.id, ann.id], "in the order asked for")
        #expect(next[1].event.seq == headBefore + 1, "the failed write's seq is used again: no gap")
        let slice = try await storage.events(userId: ann.id, since: 0, limit: 100)
        #expect(slice.events.map(\.seq) == Array(1...(headBefore + 1)))
        #expect(slice.head == headBefore + 1)
    }

    /// Two accounts, `ann` and `Bea`, who follow each other.
    static func pair(_ storage: SQLiteStorage) async throws -> (Viewer, Viewer) {
        let ann = try await storage.account("ann", tokenHash: [0])
        let bea = try await storage.account("Bea", tokenHash: [1])
        try await storage.follow(ann, "bea")
        try await storage.follow(bea, "ann")
        return (ann, bea)
    }
}
