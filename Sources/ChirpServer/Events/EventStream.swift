import ChirpModels
import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore

/// `GET /v1/events/stream`, upgraded to a WebSocket: every stored event after `since`, then
/// live ones as they are committed, each as one text frame (API.md's Event object); `typing`
/// arrives live with `"seq": null`.
///
/// The stream pulls from storage after each wake-up rather than buffering pushed events, so a
/// slow reader only falls behind: server memory per connection stays bounded, and the client
/// resumes from the last seq it saw when it reconnects. A reader that stops reading altogether
/// (one write blocked for `writeStallLimit`, as the server's `StallMonitor` sees it), or lets `EventListener.liveCapacity` typing events
/// pile up, is disconnected; in the second case with close code 1008 and the reason.
struct EventStream: Sendable {
    let services: ServerServices
    /// How long one frame may wait for the reader before the connection is dropped.
    static let writeStallLimit: Duration = .seconds(15)
    /// The path the upgrade is offered on.
    static let path = APIRoute.eventsStream.template

    /// Decides whether an HTTP request becomes this stream: the path matches and the token (in
    /// `Authorization` or `?token=`) is valid. Otherwise the request goes to the router, which
    /// answers 401 or 426 with the error envelope.
    func shouldUpgrade(_ request: HTTPRequest) async -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let target = request.path, let components = URLComponents(string: target), components.path == Self.path else {
            return .dontUpgrade
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        guard let viewer = try? await Authenticator(services: services).viewer(
            authorization: request.headerFields[.authorization], queryToken: query["token"])
        else { return .dontUpgrade }
        var since: Int64 = 0
        if let text = query["since"] {
            guard let value = Int64(text), value >= 0 else { return .dontUpgrade }  // the router answers 400
            since = value
        }
        let services = self.services
        let start = since
        return .upgrade([:]) { inbound, outbound, _ in
            let watch = WriteStallWatch(limit: Self.writeStallLimit)
            services.stallMonitor.add(watch)
            defer { services.stallMonitor.remove(watch) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Frames from the client are not used; the loop ends when it closes.
                    defer { watch.end() }
                    for try await _ in inbound {}
                }
                group.addTask {
                    defer { watch.end() }
                    try await Self.deliver(services: services, userId: viewer.id, since: start, outbound: outbound, watch: watch)
                }
                // This task waits for whichever comes first: a stalled write (throws), or
                // either side ending (its error, if any, is rethrown by `next`).
                try await watch.waitForStall()
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Writes stored events after `since`, then waits for more, until cancelled.
    static func deliver(services: ServerServices, userId: Int64, since: Int64, outbound: WebSocketOutboundWriter, watch: WriteStallWatch) async throws {
        let listener = services.hub.listen(userId: userId)
        services.metrics.openStreams.increment()
        defer {
            services.hub.remove(listener)
            services.metrics.openStreams.decrement()
        }
        var last = since
        var woken = false
        while !Task.isCancelled {
            // Re-arm first: a commit from here on wakes the next wait, one before is in the
            // hand-over (or in storage).
            listener.rearm()
            if woken, let events = listener.takeStoredEvents(after: last) {
                // The commits' own events, exactly the next seqs: no storage read needed.
                for event in events {
                    try await watch.timed { try await outbound.write(.text(EventRoutes.json(event, live: false))) }
                    last = event.seq
                }
            } else {
                while true {
                    let slice = try await services.storage.events(userId: userId, since: last, limit: 500)
                    for event in slice.events {
                        try await watch.timed { try await outbound.write(.text(EventRoutes.json(event, live: false))) }
                        last = event.seq
                    }
                    if slice.events.count < 500 { break }
                }
            }
            if listener.overflowed {
                try await outbound.close(.policyViolation, reason: "slow consumer: reconnect with since=\(last)")
                return
            }
            for event in listener.takeLiveEvents() {
                try await watch.timed { try await outbound.write(.text(EventRoutes.json(event, live: true))) }
            }
            await listener.waitForWake()  // the hub wakes every listener now and then, too
            woken = true
        }
    }
}
