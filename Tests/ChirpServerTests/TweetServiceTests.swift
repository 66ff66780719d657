import ChirpModels
import Synchronization
import Testing

@testable import ChirpServer

/// `TweetService` over a storage double: the replay-or-conflict rule of client tweet ids and
/// who may delete a tweet are the service's, asked by storage inside its transaction.
@Suite("Tweet service")
struct TweetServiceTests {
    static let ann = Viewer(id: 1, username: "ann", tokenHash: [1])

    /// Holds one stored tweet (by author 1) and applies what the service decides.
    final class Store: TweetStore {
        let stored: Tweet
        let deleted = Mutex<[Int64]>([])
        let writes = Mutex(0)

        init() {
            stored = Tweet(
                id: "5", clientTweetId: "t-1",
                author: User(
                    id: "1", username: "ann", displayName: "ann", createdAt: Timestamp(millisecondsSince1970: 0),
                    followersCount: 0, followingCount: 0),
                text: "first", createdAt: Timestamp(millisecondsSince1970: 0))
        }

        func putTweet(
            _ new: NewTweet, replay: @escaping @Sendable (Tweet) throws -> Tweet,
            encode: @escaping @Sendable (Tweet) throws -> String
        ) async throws -> WriteOutcome<Tweet> {
            if new.clientTweetId == stored.clientTweetId {
                return WriteOutcome(value: try replay(stored), created: false)
            }
            writes.withLock { $0 += 1 }
            var tweet = stored
            tweet.clientTweetId = new.clientTweetId
            tweet.text = new.text
            let event = StoredEvent(
                seq: 1, type: EventType.tweetCreated, createdAt: new.createdAt, json: try encode(tweet))
            return WriteOutcome(
                value: tweet, created: true, appended: [AppendedEvent(userId: new.author.id, event: event)])
        }

        func deleteTweet(id: Int64, permit: @escaping @Sendable (Int64?) throws -> Void) async throws {
            try permit(id == 5 ? 1 : nil)
            deleted.withLock { $0.append(id) }
        }

        func tweets(byKey: String, viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>]? {
            nil
        }
        func timeline(viewer: Int64, before cursor: Int64, limit: Int) async throws -> [Listed<Tweet>] { [] }
    }

    static func service(_ store: Store, hub: EventHub = EventHub()) -> TweetService {
        TweetService(store: store, hub: hub, metrics: ServerMetrics(), now: { Timestamp(millisecondsSince1970: 1) })
    }

    @Test func theSameTextUnderAUsedIdIsARetryAnotherIsAConflict() async throws {
        let store = Store()
        let service = Self.service(store)
        let retry = try await service.post(Self.ann, clientTweetId: "t-1", text: "first")
        #expect(!retry.created && retry.value == store.stored)
        let conflict = await #expect(throws: APIError.self) {
            _ = try await service.post(Self.ann, clientTweetId: "t-1", text: "second")
        }
        #expect(
            conflict?.status == .conflict && conflict?.code == APIErrorCode.clientIdReused
                && conflict?.field == "clientTweetId")
        #expect(store.writes.withLock { $0 } == 0)
    }

    @Test func aNewTweetIsEncodedAsTheAPIWritesItAndWakesItsAudience() async throws {
        let store = Store()
        let hub = EventHub()
        let listener = hub.listen(userId: Self.ann.id)
        defer { hub.remove(listener) }
        let posted = try await Self.service(store, hub: hub).post(Self.ann, clientTweetId: "t-2", text: "  second  ")
        #expect(posted.created && posted.value.text == "second", "the text is trimmed before storage")
        let events = try #require(listener.takeStoredEvents(after: 0))
        #expect(events.map(\.json) == [try APIJSON.encode(posted.value)])
    }

    @Test func onlyTheAuthorDeletesAndAMissingTweetIsA404() async throws {
        let store = Store()
        let service = Self.service(store)
        let other = Viewer(id: 2, username: "bea", tokenHash: [2])
        let forbidden = await #expect(throws: APIError.self) { try await service.delete(other, id: "5") }
        #expect(forbidden?.status == .forbidden)
        let missing = await #expect(throws: APIError.self) { try await service.delete(Self.ann, id: "6") }
        #expect(missing?.status == .notFound && missing?.code == APIErrorCode.tweetNotFound)
        let malformed = await #expect(throws: APIError.self) { try await service.delete(Self.ann, id: "x") }
        #expect(malformed?.status == .notFound)
        try await service.delete(Self.ann, id: "5")
        #expect(store.deleted.withLock { $0 } == [5])
    }
}
