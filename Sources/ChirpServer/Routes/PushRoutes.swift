import ChirpModels
import Hummingbird

/// Web Push: `GET /v1/push/key` and `/v1/me/push-subscriptions…` (API.md part 4).
struct PushRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>, authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let push = services.push
        let limit = services.configuration.maxBodyBytes
        router.add(.pushKey) { _, _ in
            try JSONResponse.make(try await push.publicKey())
        }
        authenticated.add(.pushSubscriptions) { _, context in
            try JSONResponse.make(try await push.list(context.viewer))
        }
        authenticated.add(.putPushSubscription) { request, context in
            let body = try await JSONResponse.decode(PushSubscriptionRequest.self, from: request, limit: limit)
            let (info, created) = try await push.put(context.viewer, id: try context.pathParameter("id"), body)
            return try JSONResponse.make(info, status: created ? .created : .ok)
        }
        authenticated.add(.deletePushSubscription) { _, context in
            try await push.delete(context.viewer, id: try context.pathParameter("id"))
            return JSONResponse.noContent()
        }
    }
}
