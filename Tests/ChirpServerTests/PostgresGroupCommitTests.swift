import ChirpModels
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import ChirpServer

/// Group commit on PostgreSQL: a batch of sends in one transaction gives each send the result
/// it would have had alone.
@Suite(
    "PostgreSQL group commit",
    .enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
struct PostgresGroupCommitTests {
    @Test func oneFailingSendInABatchDoesNotFailTheOthers() async throws {
        try await Self.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            let bea = try await storage.account("bea", tokenHash: [2])
            func pending(_ from: Viewer, _ to: String, _ id: String, _ text: String = "hi", refuse: Bool = false)
                -> PendingSend
            {
                PendingSend(
                    new: NewMessage(sender: from, recipient: to, clientMessageId: id, text: text, createdAt: .now()),
                    decisions: RecordingDecisions(refuseAll: refuse))
            }
            // Decisions that refuse, a recipient that does not exist, and text PostgreSQL cannot
            // store (U+0000: validation keeps it out; storage must still fail only that send).
            let results = await storage.sendBatch([
                pending(ann, "bea", "a1"), pending(ann, "nobody", "a2"), pending(bea, "ann", "b1", refuse: true),
                pending(bea, "ann", "b2"), pending(ann, "bea", "a3", "nul \u{0} here"), pending(ann, "bea", "a4"),
            ])
            #expect(results.map { (try? $0.get())?.created } == [true, nil, nil, true, nil, true])
            #expect(throws: StorageError.unstorableText) { try results[4].get() }
            #expect(throws: RecordingDecisions.NoRecipient.self) { try results[1].get() }
            #expect(try await storage.latestMessages(ann, "bea").map(\.clientMessageId) == ["a1", "b2", "a4"])
            for user in [ann, bea] { try await Self.expectGapFree(storage, user.id, count: 3) }
        }
    }

    @Test func aBatchDecidesEachSendAfterTheOnesBeforeIt() async throws {
        try await Self.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            let bea = try await storage.account("bea", tokenHash: [2])
            let replying = RecordingDecisions()
            let results = await storage.sendBatch([
                PendingSend(
                    new: NewMessage(
                        sender: bea, recipient: "ann", clientMessageId: "b1", text: "first", createdAt: .now()),
                    decisions: RecordingDecisions()),
                PendingSend(
                    new: NewMessage(
                        sender: ann, recipient: "bea", clientMessageId: "a1", text: "reply", createdAt: .now()),
                    decisions: replying),
                PendingSend(
                    new: NewMessage(
                        sender: ann, recipient: "bea", clientMessageId: "a1", text: "reply", createdAt: .now()),
                    decisions: RecordingDecisions()),
            ])
            let outcomes = try results.map { try $0.get() }
            #expect(
                replying.questions.first?.recipient?.hasWrittenToSender == true,
                "bea's message earlier in the batch counts as written")
            #expect(outcomes.map(\.created) == [true, true, false])
            #expect(outcomes[2].value == outcomes[1].value, "the same client id twice in a batch is one message")
            #expect(outcomes[1].appended.map(\.event.seq) == [2, 2], "ann's and bea's second events")
            let conversation = try #require(
                try await storage.conversations(viewer: bea.id, before: .max, limit: 5, requests: false).first)
            #expect(conversation.item.unreadCount == 1 && conversation.item.lastMessage?.clientMessageId == "a1")
        }
    }

    /// The facts are read without locks and checked again under them: a block committed in
    /// between is seen, and the send is decided again (and refused), with nothing written.
    @Test func aBlockCommittedBetweenTheFactsAndTheWriteIsHonoured() async throws {
        try await Self.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            let bea = try await storage.account("bea", tokenHash: [2])
            _ = try await storage.follow(
                followerId: bea.id, followeeKey: "ann", at: .now(), permit: { _ in }, notice: { _ in "{}" })
            let blocked = Mutex(false)
            storage.afterBatchFacts.withLock { hook in
                hook = {
                    guard !blocked.withLock({ $0 }) else { return }
                    blocked.withLock { $0 = true }
                    _ = try await storage.block(blockerId: bea.id, blockedKey: "ann", at: .now(), notice: { _ in "{}" })
                }
            }
            let send = PendingSend(
                new: NewMessage(sender: ann, recipient: "bea", clientMessageId: "a1", text: "hello", createdAt: .now()),
                decisions: MessageRules())
            let result = await storage.sendBatch([send])
            #expect(blocked.withLock { $0 }, "the block was committed after the facts were read")
            #expect(throws: APIError.self) { try result[0].get() }
            #expect(try await storage.latestMessages(ann, "bea").isEmpty)
            let annEvents = try await storage.events(userId: ann.id, since: 0, limit: 10).events
            #expect(!annEvents.contains { $0.type == EventType.messageCreated })
        }
    }

    /// A viewer taken from an instance's session cache (`SessionConfirmation.bySendWrite`) is written
    /// only while its session lives: here the session ends (as on another instance, with no
    /// word to this one) just before a batch this instance decides from cached facts. The
    /// write refuses that send, and the fresh read decides it again: 401 for it, the rest of
    /// its batch stored.
    @Test func aSendWhoseSessionEndedElsewhereIsRefusedByItsWrite() async throws {
        try await Self.withInstances(1, reservedIdLifetime: .seconds(60)) { instances in
            let storage = instances[0]
            var ann = try await storage.account("ann", tokenHash: [1])
            ann.sessionConfirmation = .bySendWrite
            let bea = try await storage.account("bea", tokenHash: [2])
            func pending(
                _ from: Viewer, _ to: String, _ id: String, _ decisions: RecordingDecisions = RecordingDecisions()
            ) -> PendingSend {
                PendingSend(
                    new: NewMessage(sender: from, recipient: to, clientMessageId: id, text: "hi", createdAt: .now()),
                    decisions: decisions)
            }
            // Facts and ids for both directions become known; ann's session is live.
            for batch in [[pending(ann, "bea", "a1")], [pending(ann, "bea", "a2"), pending(bea, "ann", "b1")]] {
                #expect(
                    try await storage.sendBatch(batch).map { try $0.get().created }
                        == Array(repeating: true, count: batch.count))
            }
            try await storage.deleteSession(tokenHash: [1])
            let annDecisions = RecordingDecisions()
            let results = await storage.sendBatch([pending(ann, "bea", "a3", annDecisions), pending(bea, "ann", "b2")])
            #expect(
                annDecisions.questions.count == 1,
                "decided once, from the cached facts; the write refused it, the fresh read ended it")
            #expect(throws: RecordingDecisions.SessionEnded.self) { try results[0].get() }
            #expect(try results[1].get().created, "bea's send in the same batch is stored")
            #expect(try await storage.latestMessages(bea, "ann").map(\.clientMessageId) == ["a1", "a2", "b1", "b2"])
            try await Self.expectGapFree(storage, ann.id, count: 4)
            // Decided from a fresh read (nothing cached for this pair), the session is found gone too.
            _ = try await storage.account("cid", tokenHash: [3])
            let fresh = await storage.sendBatch([pending(ann, "cid", "c1")])
            #expect(throws: RecordingDecisions.SessionEnded.self) { try fresh[0].get() }
            #expect(try await storage.latestMessages(ann, "cid").isEmpty)
        }
    }

    @Test func concurrentSendsOnTwoInstancesKeepStreamsGapFreeAndIdsIdempotent() async throws {
        try await Self.withInstances(2) { instances in
            var users: [Viewer] = []
            for index in 0..<6 { users.append(try await instances[0].account("u\(index)", tokenHash: [UInt8(index)])) }
            let everyone = users
            // Every send goes twice, to both instances at once: a client retrying on another instance.
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for round in 0..<20 {
                    for (index, sender) in everyone.enumerated() {
                        let recipient = everyone[(index + 1 + round % 5) % everyone.count]
                        for storage in instances {
                            group.addTask {
                                try await storage.send(
                                    NewMessage(
                                        sender: sender, recipient: recipient.username, clientMessageId: "r\(round)",
                                        text: "m", createdAt: .now())
                                ).created
                            }
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(created.filter { $0 }.count == 120, "each of the 120 client ids stored once")
            #expect(
                instances.map { $0.sends.statistics.largestBatch }.max()! > 1, "concurrent sends shared a transaction")
            for user in everyone { try await Self.expectGapFree(instances[1], user.id, count: 40) }
        }
    }

    @Test func aRetryAfterTheConnectionsWereCutReturnsTheSameMessage() async throws {
        try await Self.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            _ = try await storage.account("bea", tokenHash: [2])
            let new = NewMessage(sender: ann, recipient: "bea", clientMessageId: "cut-1", text: "hi", createdAt: .now())
            let first = try await storage.send(new)
            try await TestDatabase.withConnection(storage.settings) { connection, logger in
                try await connection.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(storage.settings.database) AND pid <> pg_backend_pid()",
                    logger: logger)
            }
            // The pool reconnects after the cut; until it has, an operation may be `unavailable`
            // (its 5 s wait for a connection ran out: a CI run beside the browser tests saw it
            // on the read below). The retries are bounded by time, not by count.
            let again = try await Self.untilAvailable { try await storage.send(new) }
            #expect(!again.created && again.value == first.value)
            try await Self.untilAvailable { try await Self.expectGapFree(storage, ann.id, count: 1) }
        }
    }

    /// Runs `body` until it does not throw `StorageError.unavailable`, for up to 60 s.
    @discardableResult
    static func untilAvailable<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do { return try await body() } catch StorageError.unavailable where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// `count` events, numbered 1...count, and the head says so.
    static func expectGapFree(_ storage: PostgresStorage, _ user: Int64, count: Int) async throws {
        let rows = try await storage.events(userId: user, since: 0, limit: 1000)
        #expect(rows.events.map(\.seq) == Array(1...Int64(count)) && rows.head == Int64(count), "user \(user)'s stream")
    }

    /// Runs `body` with `count` storages (instances) on one new database.
    /// `reservedIdLifetime`: see `PostgresStorage.open`.
    static func withInstances(
        _ count: Int, reservedIdLifetime: Duration = .milliseconds(50),
        _ body: @Sendable ([PostgresStorage]) async throws -> Void
    ) async throws {
        let settings = try #require(TestDatabase.freshPostgresSettings(poolSize: 4))
        try await TestDatabase.create(settings)
        var instances: [PostgresStorage] = []
        for _ in 0..<count {
            instances.append(
                try await PostgresStorage.open(
                    settings: settings, logger: Logger(label: "chirp.test"), reservedIdLifetime: reservedIdLifetime))
        }
        let opened = instances
        try await withThrowingTaskGroup(of: Void.self) { group in
            for storage in opened { group.addTask { await storage.run() } }
            defer { group.cancelAll() }
            try await body(opened)
        }
        await TestDatabase.drop(settings)
    }
}
