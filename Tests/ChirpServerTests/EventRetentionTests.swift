import ChirpModels
import Foundation
import Testing

@testable import ChirpServer

/// Stored events older than `--event-retention` are pruned by the retention sweep, each stream
/// keeping its newest; a client resuming from before the horizon is told (`events.pruned`,
/// live only, first) and keeps a gap-free stream from there. Over real sockets on SQLite (and
/// on PostgreSQL with `CHIRP_TEST_DATABASE=postgres`).
@Suite("Event retention")
struct EventRetentionTests {
    @Test func oldEventsArePrunedAndAClientBehindIsToldToRefresh() async throws {
        let configuration = TestServer.configuration {
            $0.eventRetention = .seconds(1)
            $0.retentionSweepInterval = .milliseconds(200)
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(alice, "bob")  // bob: follow.created (1)
            #expect(try await api.sendMessage(bob, to: "alice", "one").status == 201)  // bob: 2
            #expect(try await api.sendMessage(bob, to: "alice", "two").status == 201)  // bob: 3
            // Past the retention, and a few sweeps: bob's stream keeps its newest event only.
            var kept = try await api.events(bob).events
            let deadline = ContinuousClock.now + .seconds(15)
            while kept.compactMap(\.seq) != [3], ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                kept = try await api.events(bob).events
            }
            #expect(kept.compactMap(\.seq) == [3], "the head stays: \(kept.map(\.type))")
            #expect(try await api.sendMessage(bob, to: "alice", "three").status == 201)  // bob: 4

            // (The sweep may have taken event 3 as well by now on a loaded machine: what is kept
            // runs gap-free from the notice's oldest seq to the head.)
            let behind = try await api.events(bob, since: 1)
            let first = try #require(behind.events.first)
            guard first.seq == nil, case .eventsPruned(let notice) = first.payload else {
                Issue.record("no events.pruned first: \(behind.events)")
                return
            }
            let oldest = try #require(Int64(notice.oldestSeq))
            #expect(
                oldest >= 3 && behind.events.dropFirst().compactMap(\.seq) == Array(oldest...4) && behind.lastSeq == 4,
                "\(behind.events)")
            // History is not an event: the conversation still has every message.
            #expect(try await api.messages(alice, with: "bob").items.map(\.text) == ["one", "two", "three"])
        }
    }

    @Test func zeroKeepsEveryEvent() async throws {
        let configuration = TestServer.configuration {
            $0.eventRetention = .zero
            $0.retentionSweepInterval = .milliseconds(100)
        }
        try await TestServer.run(configuration) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(alice, "bob")
            #expect(try await api.sendMessage(bob, to: "alice", "one").status == 201)
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(try await api.events(bob).events.compactMap(\.seq) == [1, 2])
            let resumed = try await api.events(bob, since: 1)
            #expect(resumed.events.map(\.seq) == [2], "nothing missing: no notice")
        }
    }

    /// A long-poll in flight when its session ends answers 401, not the events that came after.
    @Test func aLongPollWhoseSessionEndsDuringTheWaitIs401() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let head = try await api.events(bob).lastSeq
            let poll = Task { try await api.send(.GET, "/v1/events?since=\(head)&wait=5", token: bob.token) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.send(.DELETE, "/v1/sessions/current", token: bob.token).status == 204)
            #expect(try await api.sendMessage(alice, to: "bob", "after you left").status == 201)
            let answer = try await poll.value
            #expect(answer.status == 401, "\(answer.status) \(answer.text)")
            #expect(!answer.text.contains("after you left"))
        }
    }
}
