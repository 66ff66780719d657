import ChirpModels
import Hummingbird

/// Tweets: idempotent posting, deleting one's own, a user's tweets, and the home timeline.
struct TweetRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let tweets = services.tweets
        let limit = services.configuration.maxBodyBytes
        authenticated.add(.putTweet) { request, context in
            let clientId = try context.pathParameter("clientTweetId")
            let body = try await JSONResponse.decode(TextBody.self, from: request, limit: limit)
            let outcome = try await tweets.post(context.viewer, clientTweetId: clientId, text: body.text)
            return try JSONResponse.make(outcome.value, status: outcome.created ? .created : .ok)
        }
        authenticated.add(.deleteTweet) { _, context in
            try await tweets.delete(context.viewer, id: try context.pathParameter("id"))
            return JSONResponse.noContent()
        }
        authenticated.add(.userTweets) { request, context in
            try JSONResponse.make(
                try await tweets.tweets(
                    by: try context.pathParameter("username"), viewer: context.viewer,
                    page: try QueryParameters(request: request).page()))
        }
        authenticated.add(.timeline) { request, context in
            try JSONResponse.make(
                try await tweets.timeline(context.viewer, page: try QueryParameters(request: request).page()))
        }
    }
}
