@testable import ChirpServer
import ChirpModels
import Foundation
import GRDB
import Testing

/// The SQLite search index written at the end of each group commit (`WriteCoalescer.atBatchEnd`):
/// sends, edits, unsends and an account's deletion in one batch leave it exactly right.
@Suite("SQLite search index in a group commit")
struct SQLiteSearchIndexTests {
    @Test func sendsEditsAndUnsendsInOneBatchAreFoundByTheirStoredTextOnly() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"))
        let (ann, bea) = try await MessageEventStorageTests.pair(storage)
        func send(_ id: String, _ text: String) async throws -> Int64 {
            let sent = try await storage.send(NewMessage(sender: ann, recipient: "bea", clientMessageId: id, text: text, createdAt: .now()))
            return Int64(sent.value.id)!
        }
        let tart = try await send("a", "apple tart")
        let crumble = try await send("b", "apple crumble")

        // One batch, in this order: a new message, an edit and an unsend of older ones, a new
        // message and the unsend of that very message (its id is the next one).
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        async let blocker: Void = storage.writer.write { _ in
            started.signal()
            release.wait()
        }
        await WriteCoalescerTests.wait("the blocker started") { started.wait(timeout: .now()) == .success }
        func queued(_ count: Int, location: SourceLocation = #_sourceLocation) async { await WriteCoalescerTests.wait("\(count) writes queued", sourceLocation: location) { storage.writer.pendingCount == count } }
        async let pie = send("c", "apple pie")
        await queued(1)
        async let edited = storage.changeMessage(tart, viewer: ann.id, peerKey: "bea", at: .now()) { facts in
            var message = facts.message
            message.text = "banana bread"
            return .update(message)
        }
        await queued(2)
        async let unsent = storage.changeMessage(crumble, viewer: ann.id, peerKey: "bea", at: .now()) { _ in .unsend }
        await queued(3)
        async let secret = send("d", "secret plan")
        await queued(4)
        async let secretUnsent = storage.changeMessage(crumble + 2, viewer: ann.id, peerKey: "bea", at: .now()) { _ in .unsend }
        await queued(5)
        release.signal()
        try await blocker
        let pieId = try await pie, secretId = try await secret
        _ = try await (edited, unsent, secretUnsent)
        #expect(secretId == crumble + 2, "the batch ran in the order queued")

        func found(_ words: String, by viewer: Viewer) async throws -> [Int64] {
            try await storage.searchMessages(viewer: viewer.id, peerKey: nil, words: SearchTerms.words(words), before: .max, limit: 50)!
                .map { Int64($0.id)! }
        }
        #expect(try await found("apple", by: bea) == [pieId])
        #expect(try await found("banana", by: bea) == [tart])
        #expect(try await found("tart", by: ann).isEmpty, "an edited message is found by its new text only")
        #expect(try await found("crumble", by: bea).isEmpty)
        #expect(try await found("secret", by: ann).isEmpty)
        // What the index holds, not only what the query lets through: no entry of a replaced
        // or unsent text is left (the query alone would hide them behind `deleted = 0`).
        let indexed = try await storage.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid", arguments: [
                "\"u\(ann.id)xapple\" OR \"u\(ann.id)xtart\" OR \"u\(ann.id)xcrumble\" OR \"u\(ann.id)xsecret\"",
            ])
        }
        #expect(indexed == [pieId])

        // The account's deletion takes the rest of its messages out of the index.
        _ = try await storage.deleteAccount(userId: ann.id, at: .now(), notice: "{}", groups: GroupRules(maxMembers: 256))
        let left = try await storage.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_search WHERE message_search MATCH ?", arguments: [
                ["apple", "pie", "banana", "bread"].map { "\"u\(bea.id)x\($0)\"" }.joined(separator: " OR "),
            ])
        }
        #expect(left == 0)
        // And the edit Bea's stream stored (its JSON held the new text) is a tombstone now.
        let edits = try await storage.pool.read { db in
            try String.fetchAll(db, sql: "SELECT data FROM events WHERE user_id = ? AND type = ?", arguments: [bea.id, EventType.messageUpdated])
        }
        #expect(!edits.isEmpty && edits.allSatisfy { !$0.contains("banana") }, "\(edits)")
    }
}
