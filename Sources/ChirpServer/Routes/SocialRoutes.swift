import ChirpModels
import Hummingbird

/// The social graph: follow, unfollow, and the follower and following lists.
struct SocialRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.follow, services: services) { _, context in
            let outcome = try await services.storage.follow(
                viewer: try context.requireViewer(), username: try context.pathParameter("username"), at: services.now())
            services.hub.publish(outcome.appended)
            return JSONResponse.noContent()
        }
        router.add(.unfollow, services: services) { _, context in
            try await services.storage.unfollow(viewer: try context.requireViewer(), username: try context.pathParameter("username"))
            return JSONResponse.noContent()
        }
        router.add(.followers, services: services) { request, context in
            try JSONResponse.make(try await services.storage.followers(
                of: try context.pathParameter("username"), viewer: try context.requireViewer().id,
                page: try QueryParameters(request: request).page()))
        }
        router.add(.following, services: services) { request, context in
            try JSONResponse.make(try await services.storage.following(
                of: try context.pathParameter("username"), viewer: try context.requireViewer().id,
                page: try QueryParameters(request: request).page()))
        }
    }
}
