import ChirpModels
import Foundation
import GRDB
import Testing

@testable import ChirpServer

/// The SQLite search index: messages indexed after their sends by `SQLiteSearchIndexer`, edits'
/// and unsends' changes written at the end of each group commit (`WriteCoalescer.atBatchEnd`).
/// Sends, edits, unsends and an account's deletion in one batch leave it exactly right, and a
/// search finds a message the same before and after the indexer has read it.
@Suite("SQLite search index")
struct SQLiteSearchIndexTests {
    @Test func sendsEditsAndUnsendsInOneBatchAreFoundByTheirStoredTextOnly() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"), searchIndexPeriod: nil)
        let indexer = try #require(storage.searchIndexer)
        let (ann, bea) = try await MessageEventStorageTests.pair(storage)
        func send(_ id: String, _ text: String) async throws -> Int64 {
            let sent = try await storage.send(
                NewMessage(sender: ann, recipient: "bea", clientMessageId: id, text: text, createdAt: .now()))
            return Int64(sent.value.id)!
        }
        let tart = try await send("a", "apple tart")
        let crumble = try await send("b", "apple crumble")
        #expect(try await indexer.catchUp() == 2)

        // One batch, in this order: a new message, an edit and an unsend of older ones, a new
        // message and the unsend of that very message (its id is the next one).
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        async let blocker: Void = storage.writer.write { _ in
            started.signal()
            release.wait()
        }
        await WriteCoalescerTests.wait("the blocker started") { started.wait(timeout: .now()) == .success }
        func queued(_ count: Int, location: SourceLocation = #_sourceLocation) async {
            await WriteCoalescerTests.wait("\(count) writes queued", sourceLocation: location) {
                storage.writer.pendingCount == count
            }
        }
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
        async let secretUnsent = storage.changeMessage(crumble + 2, viewer: ann.id, peerKey: "bea", at: .now()) { _ in
            .unsend
        }
        await queued(5)
        release.signal()
        try await blocker
        let pieId = try await pie
        let secretId = try await secret
        _ = try await (edited, unsent, secretUnsent)
        #expect(secretId == crumble + 2, "the batch ran in the order queued")

        func found(_ words: String, by viewer: Viewer) async throws -> [Int64] {
            try await storage.searchMessages(
                viewer: viewer.id, peerKey: nil, words: SearchTerms.words(words), before: .max, limit: 50)!
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
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                arguments: [
                    "\"u\(ann.id)xapple\" OR \"u\(ann.id)xtart\" OR \"u\(ann.id)xcrumble\" OR \"u\(ann.id)xsecret\""
                ])
        }
        #expect(indexed.isEmpty, "a send does not index its message")
        #expect(try await indexer.catchUp() == 2, "the new message and the unsent one are read")
        let indexedNow = try await storage.pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                arguments: [
                    "\"u\(ann.id)xapple\" OR \"u\(ann.id)xtart\" OR \"u\(ann.id)xcrumble\" OR \"u\(ann.id)xsecret\""
                ])
        }
        #expect(indexedNow == [pieId])
        #expect(try await found("apple", by: bea) == [pieId])

        // The account's deletion takes the rest of its messages out of the index.
        _ = try await storage.deleteAccount(
            userId: ann.id, at: .now(), notice: "{}", groups: GroupRules(maxMembers: 256))
        let left = try await storage.pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM message_search WHERE message_search MATCH ?",
                arguments: [
                    ["apple", "pie", "banana", "bread"].map { "\"u\(bea.id)x\($0)\"" }.joined(separator: " OR ")
                ])
        }
        #expect(left == 0)
        // And the edit Bea's stream stored (its JSON held the new text) is a tombstone now.
        let edits = try await storage.pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT data FROM events WHERE user_id = ? AND type = ?",
                arguments: [bea.id, EventType.messageUpdated])
        }
        #expect(!edits.isEmpty && edits.allSatisfy { !$0.contains("banana") }, "\(edits)")
    }

    /// Group messages share the index under their group's terms: indexed after their sends, an
    /// edit or an unsend below the mark changes the index at once, and an account's deletion
    /// takes its group messages out.
    @Test func groupMessagesAreIndexedUnderTheirGroupAndLeaveItWithTheirText() async throws {
        let configuration = TestServer.configuration()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let storage = try SQLiteStorage(url: configuration.databaseURL, searchIndexPeriod: nil)
        let indexer = try #require(storage.searchIndexer)
        try await TestServer.run(storage: storage, configuration) { api in
            let (ann, members) = try await api.people("ann", ["bea"])
            let bea = members[0]
            let group = try await api.group(ann, ["bea"])
            let tart = try await api.sentToGroup(ann, group.id, "apple tart")
            let crumble = try await api.sentToGroup(ann, group.id, "apple crumble")
            let kept = try await api.sentToGroup(bea, group.id, "apple jam")
            func indexed(_ words: [String]) async throws -> [String] {
                try await storage.pool.read { db in
                    try Int64.fetchAll(
                        db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                        arguments: [
                            words.map { "\"g\(group.id)x\($0)\"" }.joined(separator: " OR ")
                        ]
                    ).map(String.init)
                }
            }
            #expect(try await indexed(["apple"]).isEmpty, "a group send does not index its message")
            #expect(
                try await api.found(bea, "apple", group: group.id) == ["apple jam", "apple crumble", "apple tart"],
                "read above the mark")
            #expect(try await indexer.catchUp() == 3)
            #expect(try await indexed(["apple"]) == [tart.id, crumble.id, kept.id])

            #expect(
                try await api.send(
                    .PATCH, "/v1/groups/\(group.id)/messages/\(tart.id)", token: ann.token,
                    json: TextBody(text: "banana bread")
                ).status == 200)
            #expect(
                try await api.send(.DELETE, "/v1/groups/\(group.id)/messages/\(crumble.id)", token: ann.token).status
                    == 204)
            #expect(
                try await indexed(["apple", "tart", "crumble"]) == [kept.id],
                "no entry of a replaced or unsent text is left")
            #expect(try await indexed(["banana"]) == [tart.id])
            #expect(try await api.found(bea, "apple") == ["apple jam"])
            #expect(try await api.found(bea, "bread", group: group.id) == ["banana bread"])

            _ = try await storage.deleteAccount(
                userId: Int64(ann.user.id)!, at: .now(), notice: "{}", groups: GroupRules(maxMembers: 256))
            #expect(
                try await indexed(["apple", "banana", "bread"]) == [kept.id],
                "the deleted account's group messages left the index")
            #expect(try await api.found(bea, "apple") == ["apple jam"])
        }
    }

    @Test func aMessageIsFoundTheSameBeforeAndAfterTheIndexerReadsIt() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chirp.sqlite")
        var storage: SQLiteStorage? = try SQLiteStorage(url: url, searchIndexPeriod: nil)
        let (ann, bea) = try await MessageEventStorageTests.pair(storage!)
        func send(_ id: String, _ text: String) async throws -> Int64 {
            let sent = try await storage!.send(
                NewMessage(sender: ann, recipient: "bea", clientMessageId: id, text: text, createdAt: .now()))
            return Int64(sent.value.id)!
        }
        func found(_ words: String, by viewer: Viewer, peer: String? = nil, before: Int64 = .max, limit: Int = 50)
            async throws -> [Int64]
        {
            try await storage!.searchMessages(
                viewer: viewer.id, peerKey: peer, words: SearchTerms.words(words), before: before, limit: limit)!
                .map { Int64($0.id)! }
        }
        func edit(_ id: Int64, to text: String) async throws {
            _ = try await storage!.changeMessage(id, viewer: ann.id, peerKey: "bea", at: .now()) { facts in
                var message = facts.message
                message.text = text
                return .update(message)
            }
        }
        let kiwi1 = try await send("k1", "kiwi alpha")
        let kiwi2 = try await send("k2", "kiwi beta")
        #expect(try await storage!.searchIndexer!.catchUp() == 2)
        let kiwi3 = try await send("k3", "kiwi gamma")
        let kiwi4 = try await send("k4", "Kiwi, DELTA!")

        // Newest first across the mark (two from `messages`, two from the index), in pages.
        #expect(try await found("kiwi", by: bea) == [kiwi4, kiwi3, kiwi2, kiwi1])
        #expect(try await found("kiwi", by: bea, limit: 3) == [kiwi4, kiwi3, kiwi2])
        #expect(try await found("kiwi", by: bea, before: kiwi2, limit: 3) == [kiwi1])
        #expect(try await found("kiwi", by: bea, before: kiwi4, limit: 1) == [kiwi3])
        #expect(
            try await found("delta kiwi", by: ann, peer: "bea") == [kiwi4], "every word, case folded, one conversation")

        // An edit on either side of the mark: found by its new text only, before and after.
        try await edit(kiwi1, to: "lime alpha")
        try await edit(kiwi3, to: "lime gamma")
        for pass in ["before the indexer", "after the indexer"] {
            #expect(try await found("kiwi", by: bea) == [kiwi4, kiwi2], "\(pass)")
            #expect(try await found("lime", by: ann) == [kiwi3, kiwi1], "\(pass)")
            if pass == "before the indexer" { #expect(try await storage!.searchIndexer!.catchUp() == 2) }
        }
        // Unsent above the mark: never indexed.
        let secret = try await send("s", "secret plan")
        _ = try await storage!.changeMessage(secret, viewer: ann.id, peerKey: "bea", at: .now()) { _ in .unsend }
        #expect(try await found("secret", by: bea).isEmpty)
        func indexed(_ word: String) async throws -> [Int64] {
            try await storage!.pool.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                    arguments: ["\"u\(ann.id)x\(word)\""])
            }
        }
        #expect(try await indexed("kiwi") == [kiwi2, kiwi4], "an edited message's old words are gone")
        #expect(try await indexed("lime") == [kiwi1, kiwi3])
        #expect(try await indexed("secret").isEmpty)

        // The mark is stored: reopened, the storage indexes only what came after it.
        let late = try await send("l", "kiwi late")
        storage = nil
        storage = try SQLiteStorage(url: url, searchIndexPeriod: nil)
        #expect(try await found("kiwi", by: bea) == [late, kiwi4, kiwi2])
        #expect(try await storage!.searchIndexer!.catchUp() == 2, "the unsent message and the late one")
        #expect(try await found("kiwi", by: bea) == [late, kiwi4, kiwi2])
    }

    @Test func theIndexerRunsByItself() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(
            url: directory.appendingPathComponent("chirp.sqlite"), searchIndexPeriod: .milliseconds(20))
        let (ann, _) = try await MessageEventStorageTests.pair(storage)
        let sent = try await storage.send(
            NewMessage(sender: ann, recipient: "bea", clientMessageId: "m", text: "plum", createdAt: .now()))
        await WriteCoalescerTests.wait("the message indexed") {
            (try? storage.pool.read { db in try SQLiteMessageSearch.indexedThrough(db) }) == Int64(sent.value.id)
        }
        let indexed = try await storage.pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ?",
                arguments: ["\"u\(ann.id)xplum\""])
        }
        #expect(indexed == [Int64(sent.value.id)!])
    }

    @Test func catchingUpTakesAsManyChunksAsTheMessagesAboveTheMark() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite"), searchIndexPeriod: nil)
        let (ann, bea) = try await MessageEventStorageTests.pair(storage)
        let count = 2 * SQLiteSearchIndexer.chunk + 5
        var ids: [Int64] = []
        for index in 0..<count {
            let sent = try await storage.send(
                NewMessage(
                    sender: ann, recipient: "bea", clientMessageId: "m\(index)", text: "fig number\(index)",
                    createdAt: .now()))
            ids.append(Int64(sent.value.id)!)
        }
        #expect(try await storage.searchIndexer!.catchUp() == count)
        #expect(try await storage.pool.read { db in try SQLiteMessageSearch.indexedThrough(db) } == ids.last)
        let indexed = try await storage.pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid",
                arguments: ["\"u\(bea.id)xfig\""])
        }
        #expect(indexed == ids, "every chunk indexed, none twice")
        #expect(try await storage.searchIndexer!.catchUp() == 0)
    }
}
