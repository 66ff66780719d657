import ChirpModels
import Hummingbird

/// `GET /v1/events`: a user's stream after `since`, optionally long-polling up to `wait`
/// seconds when there is nothing new. Live-only events (`typing`) that arrive during the wait
/// are included with `"seq": null`. (`GET /v1/events/stream` is upgraded before the router;
/// a request that reaches it was not an upgrade.)
struct EventRoutes {
    let services: ServerServices

    func register(on authenticated: RouterGroup<AuthenticatedRequestContext>) {
        let events = services.events
        let accounts = services.accounts
        authenticated.add(.events) { request, context in
            let query = QueryParameters(request: request)
            let since = Int64(try query.int("since", in: 0...Int.max) ?? 0)
            let limit = try query.limit(in: Validation.eventsLimit, default: Validation.defaultEventsLimit)
            let wait = try query.int("wait", in: Validation.longPollWaitSeconds) ?? 0
            let viewer = context.viewer
            let batch = try await events.poll(userId: viewer.id, since: since, limit: limit, wait: wait) {
                try await accounts.stillSignedIn(viewer)
            }
            return JSONResponse.raw(EventJSON.encode(batch))
        }
        authenticated.add(.eventsStream) { request, _ in
            // Reached only when the request was not upgraded: bad parameters, or no upgrade.
            _ = try QueryParameters(request: request).int("since", in: 0...Int.max)
            throw APIError(
                .upgradeRequired, "upgrade_required",
                "This endpoint is a WebSocket: connect with an Upgrade: websocket request.")
        }
    }
}
