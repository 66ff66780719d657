import ChirpModels
import Testing

@Suite("Tweets and the timeline")
struct TweetTests {
    @Test func postingIsIdempotentAndLimitedTo280() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let first = try await api.send(
                .PUT, "/v1/tweets/t-1", token: alice.token, json: TextBody(text: " Hello, world! "))
            #expect(first.status == 201)
            let tweet: Tweet = try first.decode()
            #expect(tweet.text == "Hello, world!" && tweet.author.username == "alice" && tweet.clientTweetId == "t-1")
            let replay = try await api.send(
                .PUT, "/v1/tweets/t-1", token: alice.token, json: TextBody(text: "Hello, world!"))
            #expect(replay.status == 200)
            #expect(try replay.decode(Tweet.self).id == tweet.id)
            let other = try await api.send(.PUT, "/v1/tweets/t-1", token: alice.token, json: TextBody(text: "changed"))
            #expect(other.status == 409 && other.errorCode == "client_id_reused")
            let exact = try await api.send(
                .PUT, "/v1/tweets/t-2", token: alice.token, json: TextBody(text: String(repeating: "🐦", count: 280)))
            #expect(exact.status == 201)
            let tooLong = try await api.send(
                .PUT, "/v1/tweets/t-3", token: alice.token, json: TextBody(text: String(repeating: "a", count: 281)))
            #expect(tooLong.status == 422 && tooLong.errorCode == "text_too_long")
        }
    }

    @Test func timelineHoldsOwnAndFollowedTweetsNewestFirst() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            let carol = try await api.register("carol")
            try await api.follow(alice, "bob")
            for (author, text) in [(alice, "a1"), (bob, "b1"), (carol, "c1"), (bob, "b2"), (alice, "a2")] {
                #expect(
                    try await api.send(.PUT, "/v1/tweets/\(text)", token: author.token, json: TextBody(text: text))
                        .status == 201)
            }
            let timeline: Page<Tweet> = try await api.send(.GET, "/v1/timeline", token: alice.token).decode()
            #expect(timeline.items.map(\.text) == ["a2", "b2", "b1", "a1"])
            #expect(timeline.items.first { $0.author.username == "bob" }?.author.followedByYou == true)
            // Paging the timeline gives the same list.
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page: Page<Tweet> = try await api.send(
                    .GET, "/v1/timeline?limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""), token: alice.token
                ).decode()
                paged += page.items.map(\.text)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(paged == ["a2", "b2", "b1", "a1"])
            let bobs: Page<Tweet> = try await api.send(.GET, "/v1/users/bob/tweets", token: carol.token).decode()
            #expect(bobs.items.map(\.text) == ["b2", "b1"])
            // Followers and the author get tweet.created; others do not.
            #expect(try await api.allEvents(alice).filter { $0.type == "tweet.created" }.count == 4)
            #expect(try await api.allEvents(carol).filter { $0.type == "tweet.created" }.count == 1)
        }
    }

    @Test func onlyTheAuthorDeletesATweet() async throws {
        try await TestServer.run { api in
            let alice = try await api.register("alice")
            let mallory = try await api.register("mallory")
            let tweet: Tweet = try await api.send(
                .PUT, "/v1/tweets/x", token: alice.token, json: TextBody(text: "mine")
            ).decode()
            let stolen = try await api.send(.DELETE, "/v1/tweets/\(tweet.id)", token: mallory.token)
            #expect(stolen.status == 403 && stolen.errorCode == "forbidden")
            #expect(try await api.send(.DELETE, "/v1/tweets/\(tweet.id)", token: alice.token).status == 204)
            #expect(try await api.send(.DELETE, "/v1/tweets/\(tweet.id)", token: alice.token).status == 404)
            #expect(try await api.send(.DELETE, "/v1/tweets/not-an-id", token: alice.token).status == 404)
            let after: Page<Tweet> = try await api.send(.GET, "/v1/users/alice/tweets", token: alice.token).decode()
            #expect(after.items.isEmpty)
        }
    }
}
