import ChirpModels
import Foundation
import Synchronization
import Testing

@testable import ChirpServer

/// Message requests in PostgreSQL's send batches: each send decided after the ones before it
/// in its batch, and the request facts checked again under the batch's locks.
@Suite(
    "PostgreSQL send batches and message requests",
    .enabled(if: TestDatabase.postgresAdminURL != nil, "CHIRP_TEST_POSTGRES_URL is not set (CI sets it)"))
struct PostgresRequestBatchTests {
    static func pending(_ from: Viewer, _ to: String, _ id: String) -> PendingSend {
        PendingSend(
            new: NewMessage(sender: from, recipient: to, clientMessageId: id, text: "hi", createdAt: .now()),
            decisions: MessageRules())
    }

    /// A request opened and answered in one batch ends accepted, as sending one by one would.
    @Test func aRequestAndItsReplyInOneBatchEndAccepted() async throws {
        try await PostgresGroupCommitTests.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            let bob = try await storage.account("bob", tokenHash: [2])
            try await storage.setTakesMessageRequests(userId: ann.id, true)
            let results = await storage.sendBatch([
                Self.pending(bob, "ann", "b1"), Self.pending(bob, "ann", "b2"), Self.pending(ann, "bob", "a1"),
            ])
            #expect(try results.map { try $0.get().created } == [true, true, true])
            #expect(try await storage.conversations(viewer: ann.id, before: .max, limit: 5, requests: true).isEmpty)
            let listed = try await storage.conversations(viewer: ann.id, before: .max, limit: 5, requests: false).map(
                \.item)
            #expect(listed.map(\.peer.username) == ["bob"] && listed.allSatisfy { !$0.request })
            let facts = try #require(try await storage.recipientFacts(sender: bob.id, recipientKey: "ann"))
            #expect(facts.request == .accepted)
        }
    }

    /// A decline committed between a batch's facts (a pending request) and its write is seen
    /// under the locks: the send is decided again and opens a new request.
    @Test func aDeclineBetweenTheFactsAndTheWriteOpensANewRequest() async throws {
        try await PostgresGroupCommitTests.withInstances(1) { instances in
            let storage = instances[0]
            let ann = try await storage.account("ann", tokenHash: [1])
            let bob = try await storage.account("bob", tokenHash: [2])
            try await storage.setTakesMessageRequests(userId: ann.id, true)
            #expect(
                try await storage.sendBatch([Self.pending(bob, "ann", "b1")]).map { try $0.get().created } == [true])
            let declined = Mutex(false)
            storage.afterBatchFacts.withLock { hook in
                hook = {
                    guard !declined.withLock({ $0 }) else { return }
                    declined.withLock { $0 = true }
                    _ = try await storage.answerRequest(
                        viewer: ann.id, peerKey: "bob", .decline, at: .now(), encode: { _ in "{}" })
                }
            }
            #expect(
                try await storage.sendBatch([Self.pending(bob, "ann", "b2")]).map { try $0.get().created } == [true])
            #expect(declined.withLock { $0 })
            let requests = try await storage.conversations(viewer: ann.id, before: .max, limit: 5, requests: true).map(
                \.item)
            #expect(
                requests.map(\.lastMessage?.clientMessageId) == ["b2"] && requests.map(\.unreadCount) == [1],
                "a new request")
        }
    }
}
