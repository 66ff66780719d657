import ChirpModels
import Hummingbird

/// The social graph: follow, unfollow, and the follower and following lists.
struct SocialRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let social = services.social
        authenticated.add(.follow) { _, context in
            try await social.follow(context.viewer, username: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        authenticated.add(.unfollow) { _, context in
            try await social.unfollow(context.viewer, username: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        authenticated.add(.followers) { request, context in
            try JSONResponse.make(
                try await social.followers(
                    of: try context.pathParameter("username"), viewer: context.viewer,
                    page: try QueryParameters(request: request).page()))
        }
        authenticated.add(.following) { request, context in
            try JSONResponse.make(
                try await social.following(
                    of: try context.pathParameter("username"), viewer: context.viewer,
                    page: try QueryParameters(request: request).page()))
        }
    }
}
