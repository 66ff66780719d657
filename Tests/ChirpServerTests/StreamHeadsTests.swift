import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// The stream heads the hub's sweep asks storage for (`EventStore.streamHeads`): the newest seq
/// of each user's stream in one query, on each database, so the sweep wakes only streams behind.
@Suite("Stream heads")
struct StreamHeadsTests {
    @Test func sqliteAnswersEachUsersNewestSeqAndZeroForAnEmptyStream() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.check(try SQLiteStorage(url: directory.appendingPathComponent("chirp.sqlite")))
    }

    @Test(.enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
    func postgresAnswersEachUsersNewestSeqAndZeroForAnEmptyStream() async throws {
        try await PostgresGroupCommitTests.withInstances(1) { instances in try await Self.check(instances[0]) }
    }

    static func check(_ storage: some ChirpStorage) async throws {
        let ann = try await storage.account("ann", tokenHash: [1])
        let bea = try await storage.account("bea", tokenHash: [2])
        let cyd = try await storage.account("cyd", tokenHash: [3])
        try await storage.follow(bea, "ann")
        try await storage.follow(ann, "bea")
        for index in 0..<3 {
            _ = try await storage.send(
                NewMessage(
                    sender: ann, recipient: "bea", clientMessageId: "c-\(index)", text: "hi \(index)", createdAt: .now()
                ))
        }
        var expected: [Int64: Int64] = [:]
        for viewer in [ann, bea, cyd] {
            expected[viewer.id] = try await storage.events(userId: viewer.id, since: 0, limit: 100).head
        }
        #expect(
            expected[ann.id]! >= 4 && expected[bea.id]! >= 4, "a follow notice and three messages each: \(expected)")
        #expect(expected[cyd.id] == 0)
        let heads = try await storage.streamHeads(userIds: [ann.id, bea.id, cyd.id, ann.id])
        #expect(heads == expected, "one query answers what each stream's own read says")
        #expect(try await storage.streamHeads(userIds: []) == [:])
    }
}

/// The sweep end to end: a stream that is up to date is left alone, and one that missed a
/// wake-up (an event written behind the hub's back) catches up within two periods.
@Suite("Stream sweep against storage's heads")
struct StreamSweepHeadsTests {
    @Test func anUpToDateStreamIsNotReReadAndAMissedEventStillArrives() async throws {
        var configuration = TestServer.configuration()
        configuration.dataDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
        let storage = try SQLiteStorage(url: configuration.databaseURL)
        let hub = EventHub(sweepPeriod: .milliseconds(500))
        try await TestServer.run(services: ServerServices(configuration: configuration, storage: storage, hub: hub)) {
            api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let bobStream = ResumingStream(port: api.port, token: bob.token)
            let task = Task { await bobStream.run() }
            defer { task.cancel() }
            _ = try await api.sendMessage(alice, to: "bob", "through the API")
            #expect(await bobStream.wait(timeout: .seconds(60)) { _ in bobStream.stored.count == 1 })

            // Several periods with nothing new: the sweep asks for the heads, and reads no stream.
            let readsBefore = try await Self.streamReads(api)
            try await Task.sleep(for: .seconds(3))
            let idleReads = try await Self.streamReads(api) - readsBefore
            #expect(idleReads == 0, "an up-to-date stream was re-read \(idleReads) times")

            // Written straight to storage: no wake-up; the sweep finds the stream behind.
            let viewer = Viewer(id: Int64(alice.user.id)!, username: "alice", tokenHash: [])
            _ = try await storage.send(
                NewMessage(
                    sender: viewer, recipient: "bob", clientMessageId: "behind-the-hub", text: "missed",
                    createdAt: .now()))
            #expect(
                await bobStream.wait(timeout: .seconds(60)) { _ in bobStream.stored.count == 2 },
                "the sweep caught the stream up")
            #expect(bobStream.stored.compactMap(\.seq) == [1, 2])
        }
    }

    static func streamReads(_ api: APIHarness) async throws -> Double {
        let text = try await api.send(.GET, "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("chirp_event_stream_reads_total ") }
        return try #require(line.flatMap { Double($0.split(separator: " ").last ?? "") }, "the metric is exported")
    }
}
