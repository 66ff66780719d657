import ChirpModels
import Hummingbird

/// Tweets: idempotent posting, deleting one's own, a user's tweets, and the home timeline.
struct TweetRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.putTweet, services: services, put)
        router.add(.deleteTweet, services: services) { _, context in
            let viewer = try context.requireViewer()
            let raw = try context.pathParameter("id")
            guard let id = Validation.parseId(raw) else {
                throw APIError(.notFound, APIErrorCode.tweetNotFound, "There is no tweet \(raw.prefix(32)).")
            }
            try await services.storage.deleteTweet(viewer: viewer, id: id)
            return JSONResponse.noContent()
        }
        router.add(.userTweets, services: services) { request, context in
            try JSONResponse.make(try await services.storage.tweets(
                by: try context.pathParameter("username"), viewer: try context.requireViewer().id,
                page: try QueryParameters(request: request).page()))
        }
        router.add(.timeline, services: services) { request, context in
            try JSONResponse.make(try await services.storage.timeline(
                viewer: try context.requireViewer().id, page: try QueryParameters(request: request).page()))
        }
    }

    @Sendable func put(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let viewer = try context.requireViewer()
        let clientId = try context.pathParameter("clientTweetId")
        guard Validation.isValidClientId(clientId) else {
            throw APIError.badParameter("clientTweetId", "A clientTweetId is 1 to 64 of A-Z, a-z, 0-9, '_' and '-' (a UUID fits).")
        }
        let body = try await JSONResponse.decode(TextBody.self, from: request, limit: services.configuration.maxBodyBytes)
        let text: String
        do { text = try Validation.tweetText(body.text) } catch { throw APIError.validation(error) }
        let outcome = try await services.storage.putTweet(NewTweet(
            author: viewer, clientTweetId: clientId, text: text, createdAt: services.now()))
        if outcome.created {
            services.hub.publish(outcome.appended)
            services.metrics.tweetsPosted.increment()
        }
        return try JSONResponse.make(outcome.value, status: outcome.created ? .created : .ok)
    }
}
