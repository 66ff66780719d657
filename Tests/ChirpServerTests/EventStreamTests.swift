import ChirpModels
import Foundation
import Testing

@Suite("Event streams")
struct EventStreamTests {
    @Test func eventsAfterSinceWithLimitAndLastSeq() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            for index in 0..<5 { _ = try await api.sendMessage(alice, to: "bob", "m\(index)") }
            // Bob: follow.created? No — Alice got that. Bob has 5 message.created.
            let first = try await api.events(bob, since: 0, limit: 2)
            #expect(first.events.map(\.seq) == [1, 2] && first.lastSeq == 2)
            let rest = try await api.events(bob, since: 2, limit: 100)
            #expect(rest.events.map(\.seq) == [3, 4, 5] && rest.lastSeq == 5)
            let none = try await api.events(bob, since: 5)
            #expect(none.events.isEmpty && none.lastSeq == 5)
            let beyond = try await api.events(bob, since: 50)
            #expect(
                beyond.events.isEmpty && beyond.lastSeq == 5, "lastSeq tells a client that is ahead where the stream is"
            )
            let alices = try await api.allEvents(alice)
            #expect(alices.map(\.type) == ["follow.created"] + Array(repeating: "message.created", count: 5))
            for bad in ["wait=31", "wait=-1", "limit=0", "limit=1001", "since=-3", "since=x"] {
                #expect(try await api.send(.GET, "/v1/events?\(bad)", token: bob.token).status == 400, "\(bad)")
            }
        }
    }

    @Test func longPollReturnsAsSoonAsAnEventIsCommitted() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            let started = ContinuousClock.now
            let poll = Task { try await api.events(bob, since: 0, wait: 30) }
            try await Task.sleep(for: .milliseconds(300))
            _ = try await api.sendMessage(alice, to: "bob", "wake up")
            let result = try await poll.value
            #expect(result.events.map(\.type) == ["message.created"])
            // Woken by the commit, not the 30 s timeout (with room for a loaded machine).
            #expect(ContinuousClock.now - started < .seconds(25), "woken by the commit, not the timeout")
            // With nothing new, wait is honoured and the reply is empty.
            let quiet = ContinuousClock.now
            let empty = try await api.events(bob, since: result.lastSeq, wait: 1)
            #expect(empty.events.isEmpty && ContinuousClock.now - quiet >= .milliseconds(900))
        }
    }

    @Test func concurrentSendersLeaveAGapFreeCompleteStream() async throws {
        let configuration = TestServer.configuration { $0.rateLimitsEnabled = false }
        try await TestServer.run(configuration) { api in
            let inbox = try await api.register("inbox")
            var senders: [Session] = []
            for index in 0..<8 {
                let sender = try await api.register("sender\(index)")
                try await api.follow(inbox, sender.username)
                senders.append(sender)
            }
            let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
                for sender in senders {
                    group.addTask {
                        var ids: [String] = []
                        for index in 0..<25 {
                            let reply = try await api.sendMessage(sender, to: "inbox", "\(sender.username) #\(index)")
                            #expect(reply.status == 201)
                            ids.append(try reply.decode(Message.self).id)
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(acknowledged.count == 200)
            let events = try await api.allEvents(inbox)
            #expect(events.map(\.seq) == (1...Int64(200)).map { Optional($0) }, "seq 1…200, no gap, no repeat")
            let delivered = events.compactMap { event -> String? in
                if case .messageCreated(let message) = event.payload { return message.id }
                return nil
            }
            #expect(Set(delivered) == Set(acknowledged) && delivered.count == 200)
            // Per sender, the stream preserves send order.
            for sender in senders {
                let own = events.compactMap { event -> String? in
                    if case .messageCreated(let message) = event.payload, message.sender == sender.username {
                        return message.text
                    }
                    return nil
                }
                #expect(own == (0..<25).map { "\(sender.username) #\($0)" })
            }
            for sender in senders {
                let stream = try await api.allEvents(sender)
                #expect(stream.map(\.seq) == (1...Int64(26)).map { Optional($0) })
            }
        }
    }
}
