import ChirpModels

/// Tweets: idempotent posting (which reaches the author's and every follower's stream),
/// deleting one's own, a user's tweets, and the home timeline.
struct TweetService: Sendable {
    let store: any TweetStore
    let hub: EventHub
    let metrics: ServerMetrics
    let now: @Sendable () -> Timestamp
    /// The tweet limit (`limits.tweets`, per author).
    var limits = RateLimits.off

    /// Posts `text` under the author's `clientTweetId`: created, or the stored tweet again when
    /// it is a retry (the same text); another text under a used id is a 409.
    func post(_ viewer: Viewer, clientTweetId: String, text rawText: String) async throws -> WriteOutcome<Tweet> {
        guard Validation.isValidClientId(clientTweetId) else {
            throw APIError.badParameter(
                "clientTweetId", "A clientTweetId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let text: String
        do { text = try Validation.tweetText(rawText) } catch { throw APIError.validation(error) }
        let limitKey = String(viewer.id)
        try await limits.take(limits.tweets, key: limitKey, refusal: "You have posted too many tweets")
        let outcome: WriteOutcome<Tweet>
        do {
            outcome = try await store.putTweet(
                NewTweet(author: viewer, clientTweetId: clientTweetId, text: text, createdAt: now()),
                replay: { existing in
                    guard existing.text == text else { throw APIError.clientTweetIdReused }
                    return existing
                },
                encode: { tweet in try APIJSON.encode(tweet) })
        } catch {
            limits.giveBack(limits.tweets, key: limitKey)
            throw error
        }
        if !outcome.created { limits.giveBack(limits.tweets, key: limitKey) }
        if outcome.created {
            hub.publish(outcome.appended)
            metrics.tweetsPosted.increment()
        }
        return outcome
    }

    /// Deletes one of the viewer's own tweets (`rawId` as the path gave it).
    func delete(_ viewer: Viewer, id rawId: String) async throws {
        guard let id = Validation.parseId(rawId) else {
            throw APIError(.notFound, APIErrorCode.tweetNotFound, "There is no tweet \(rawId.prefix(32)).")
        }
        let viewerId = viewer.id
        try await store.deleteTweet(id: id) { author in
            guard let author else { throw APIError(.notFound, APIErrorCode.tweetNotFound, "There is no tweet \(id).") }
            guard author == viewerId else {
                throw APIError(.forbidden, APIErrorCode.forbidden, "You can only delete your own tweets.")
            }
        }
    }

    func tweets(by username: String, viewer: Viewer, page: PageRequest) async throws -> Page<Tweet> {
        guard
            let rows = try await store.tweets(
                byKey: try UsernameLookup.key(username), viewer: viewer.id, before: page.before, limit: page.fetch)
        else { throw APIError.userNotFound(username) }
        return PageBuilder.newestFirst(rows, limit: page.limit)
    }

    /// The viewer's and the followed users' tweets, newest first.
    func timeline(_ viewer: Viewer, page: PageRequest) async throws -> Page<Tweet> {
        PageBuilder.newestFirst(
            try await store.timeline(viewer: viewer.id, before: page.before, limit: page.fetch), limit: page.limit)
    }
}
