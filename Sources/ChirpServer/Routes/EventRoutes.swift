import ChirpModels
import Hummingbird
import NIOCore

/// `GET /v1/events`: a user's stream after `since`, optionally long-polling up to `wait`
/// seconds when there is nothing new. Live-only events (`typing`) that arrive during the wait
/// are included with `"seq": null`.
struct EventRoutes {
    let services: ServerServices

    func register(on router: Router<ChirpRequestContext>) {
        router.add(.events, services: services, events)
        router.add(.eventsStream, services: services) { request, _ in
            // Reached only when the request was not upgraded: bad parameters, or no upgrade.
            _ = try QueryParameters(request: request).int("since", in: 0...Int.max)
            throw APIError(.upgradeRequired, "upgrade_required", "This endpoint is a WebSocket: connect with an Upgrade: websocket request.")
        }
    }

    @Sendable func events(_ request: Request, _ context: ChirpRequestContext) async throws -> Response {
        let viewer = try context.requireViewer()
        let query = QueryParameters(request: request)
        let since = Int64(try query.int("since", in: 0...Int.max) ?? 0)
        let limit = try query.limit(in: Validation.eventsLimit, default: Validation.defaultEventsLimit)
        let wait = try query.int("wait", in: Validation.longPollWaitSeconds) ?? 0

        var slice = try await services.storage.events(userId: viewer.id, since: since, limit: limit)
        var live: [StoredEvent] = []
        if slice.events.isEmpty, wait > 0 {
            // Register before re-reading so a commit between the two reads still wakes us.
            let listener = services.hub.listen(userId: viewer.id)
            defer { services.hub.remove(listener) }
            slice = try await services.storage.events(userId: viewer.id, since: since, limit: limit)
            if slice.events.isEmpty {
                await listener.wait(timeout: .seconds(min(wait, services.configuration.maxLongPollSeconds)))
                slice = try await services.storage.events(userId: viewer.id, since: since, limit: limit)
                live = listener.takeLiveEvents()
            }
        }
        let lastSeq = slice.events.last?.seq ?? slice.head
        return JSONResponse.raw(Self.encode(slice.events, live: live, lastSeq: lastSeq))
    }

    /// Writes `{"events": [...], "lastSeq": N}` by splicing the stored JSON of each event's data,
    /// so serving events never decodes and re-encodes them.
    static func encode(_ events: [StoredEvent], live: [StoredEvent], lastSeq: Int64) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString(#"{"events":["#)
        let all = events.map { ($0, false) } + live.map { ($0, true) }
        for (index, (event, isLive)) in all.enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeString(json(event, live: isLive))
        }
        buffer.writeString(#"],"lastSeq":"#)
        buffer.writeString(String(lastSeq))
        buffer.writeString("}")
        return buffer
    }

    /// One event as API.md's Event object; live-only events have `"seq": null`.
    static func json(_ event: StoredEvent, live: Bool) -> String {
        #"{"seq":"# + (live ? "null" : String(event.seq)) + #","type":""# + event.type
            + #"","createdAt":""# + event.createdAt.rfc3339 + #"","data":"# + event.json + "}"
    }
}
