import ChirpModels
import Testing

@testable import ChirpServer

/// `MessageService` over a storage double: validation before storage, the rate limit with
/// its retry exception, the wake-ups after a commit, paging, and typing under the DM rule.
@Suite("Message service")
struct MessageServiceTests {
    static let ann = Viewer(id: 1, username: "ann", tokenHash: [1])
    static let bea = RecipientFacts(id: 2, username: "Bea", followsSender: true, hasWrittenToSender: false)
    static let cy = RecipientFacts(id: 3, username: "cyd", followsSender: false, hasWrittenToSender: false)

    static func service(_ store: MessageStoreDouble, hub: EventHub = EventHub(), limit: Int = 100) -> MessageService {
        var configuration = ServerConfiguration()
        configuration.messageRateLimit = limit
        configuration.messageRateWindow = .seconds(60)
        return MessageService(
            store: store, hub: hub, bus: nil,
            limits: RateLimits(configuration: configuration, limiter: MemoryRateLimiter()),
            metrics: ServerMetrics(), now: { Timestamp(millisecondsSince1970: 1_000) })
    }

    @Test func invalidInputNeverReachesStorage() async {
        let store = MessageStoreDouble(recipients: [Self.bea])
        let service = Self.service(store)
        let badId = await #expect(throws: APIError.self) {
            _ = try await service.send(Self.ann, to: "bea", clientMessageId: "no spaces", text: "hi")
        }
        #expect(badId?.status == .badRequest)
        let empty = await #expect(throws: APIError.self) {
            _ = try await service.send(Self.ann, to: "bea", clientMessageId: "c1", text: "   ")
        }
        #expect(empty?.status == .unprocessableContent)
        let impossible = await #expect(throws: APIError.self) {
            _ = try await service.send(Self.ann, to: "b", clientMessageId: "c1", text: "hi")
        }
        #expect(impossible?.status == .notFound)
        #expect(store.calls.isEmpty)
    }

    @Test func aSendWakesBothStreamsAfterItsCommitAndARetryWakesNobody() async throws {
        let store = MessageStoreDouble(recipients: [Self.bea])
        let hub = EventHub()
        let listener = hub.listen(userId: Self.bea.id)
        defer { hub.remove(listener) }
        let service = Self.service(store, hub: hub)

        let sent = try await service.send(Self.ann, to: "bea", clientMessageId: "c1", text: "hi")
        #expect(sent.created && sent.value.recipient == "Bea")
        #expect(listener.takeStoredEvents(after: 0)?.map(\.type) == [EventType.messageCreated])

        let again = try await service.send(Self.ann, to: "BEA", clientMessageId: "c1", text: "hi")
        #expect(!again.created && again.value == sent.value)
        #expect(listener.takeStoredEvents(after: 1) == [], "a replay appends nothing and hands nothing over")
        #expect(store.stored.count == 1)
    }

    @Test func overTheRateLimitOnlyARetryIsAnswered() async throws {
        let store = MessageStoreDouble(recipients: [Self.bea])
        let service = Self.service(store, limit: 1)
        let first = try await service.send(Self.ann, to: "bea", clientMessageId: "c1", text: "hi")
        #expect(first.created)

        let retry = try await service.send(Self.ann, to: "bea", clientMessageId: "c1", text: "hi")
        #expect(!retry.created && retry.value == first.value, "the stored message, though the limit is reached")
        let reused = await #expect(throws: APIError.self) {
            _ = try await service.send(Self.ann, to: "bea", clientMessageId: "c1", text: "other")
        }
        #expect(reused?.status == .tooManyRequests, "not a retry: limited like any new send")
        let fresh = await #expect(throws: APIError.self) {
            _ = try await service.send(Self.ann, to: "bea", clientMessageId: "c2", text: "hi")
        }
        #expect(fresh?.status == .tooManyRequests && fresh?.retryAfter != nil)
        #expect(store.calls.filter { $0 == "sendMessage" }.count == 1, "limited sends never reach the write")
    }

    @Test func typingFollowsTheSameRuleAsSending() async throws {
        let store = MessageStoreDouble(recipients: [Self.bea, Self.cy])
        let hub = EventHub()
        let beaListens = hub.listen(userId: Self.bea.id)
        let cyListens = hub.listen(userId: Self.cy.id)
        defer {
            hub.remove(beaListens)
            hub.remove(cyListens)
        }
        let service = Self.service(store, hub: hub)

        try await service.typing(Self.ann, to: "bea")
        #expect(beaListens.takeLiveEvents().map(\.type) == [EventType.typing])
        let refused = await #expect(throws: APIError.self) { try await service.typing(Self.ann, to: "cyd") }
        #expect(refused?.code == APIErrorCode.dmNotAllowed)
        #expect(cyListens.takeLiveEvents().isEmpty)
        let missing = await #expect(throws: APIError.self) { try await service.typing(Self.ann, to: "nobody") }
        #expect(missing?.code == APIErrorCode.userNotFound)
    }

    @Test func markReadTurnsStorageOutcomesIntoAPIErrors() async throws {
        let store = MessageStoreDouble(recipients: [Self.bea])
        let service = Self.service(store)
        let badId = await #expect(throws: APIError.self) {
            try await service.markRead(Self.ann, peer: "bea", upTo: "x")
        }
        #expect(badId?.status == .badRequest)
        store.state.withLock { $0.markRead = .noSuchMessage }
        let noMessage = await #expect(throws: APIError.self) {
            try await service.markRead(Self.ann, peer: "bea", upTo: "9")
        }
        #expect(noMessage?.code == APIErrorCode.messageNotFound && noMessage?.field == "upTo")
        store.state.withLock { $0.markRead = .noSuchPeer }
        let noPeer = await #expect(throws: APIError.self) {
            try await service.markRead(Self.ann, peer: "bea", upTo: "9")
        }
        #expect(noPeer?.code == APIErrorCode.userNotFound)
        store.state.withLock { $0.markRead = .unchanged }
        try await service.markRead(Self.ann, peer: "bea", upTo: "9")
    }

    @Test func pagesGoBackFromTheNewestAndForwardsFromAfter() async throws {
        let store = MessageStoreDouble(recipients: [Self.bea])
        let service = Self.service(store)
        for index in 1...5 {
            _ = try await service.send(Self.ann, to: "bea", clientMessageId: "c\(index)", text: "m\(index)")
        }

        let newest = try await service.page(Self.ann, peer: "bea", limit: 2, before: nil, after: nil)
        #expect(newest.items.map(\.text) == ["m4", "m5"] && newest.nextCursor == "4")
        let older = try await service.page(Self.ann, peer: "bea", limit: 2, before: 4, after: nil)
        #expect(older.items.map(\.text) == ["m2", "m3"] && older.nextCursor == "2")
        let oldest = try await service.page(Self.ann, peer: "bea", limit: 2, before: 2, after: nil)
        #expect(oldest.items.map(\.text) == ["m1"] && oldest.nextCursor == nil)
        let forwards = try await service.page(Self.ann, peer: "bea", limit: 3, before: nil, after: 1)
        #expect(forwards.items.map(\.text) == ["m2", "m3", "m4"] && forwards.nextCursor == "4")
        let missing = await #expect(throws: APIError.self) {
            _ = try await service.page(Self.ann, peer: "nobody", limit: 2, before: nil, after: nil)
        }
        #expect(missing?.code == APIErrorCode.userNotFound)
    }
}
