import ChirpModels
import Foundation

/// `GET /v1/events/stream`: decides whether a request becomes an event-stream WebSocket
/// (`EventStreamConnection` then serves it).
struct EventStream: Sendable {
    let services: ServerServices
    /// Each user's open streams, and the cap on them.
    let roster: StreamRoster

    init(services: ServerServices) {
        self.services = services
        self.roster = services.streams
    }
    /// The path the upgrade is offered on.
    static let path = APIRoute.eventsStream.template

    /// Who the stream is for and where it starts.
    struct Grant: Sendable {
        var userId: Int64
        /// The session the stream is opened with (it closes when that session ends).
        var tokenHash: [UInt8]
        var since: Int64
    }

    /// A grant when the request target is the stream's path, the token (in `Authorization` or
    /// `?token=`) is valid and `since` is absent or a seq; nil otherwise, and the request is then
    /// not upgraded (a plain request goes to the router, which answers 401, 400 or 426 with the
    /// error envelope).
    func authorize(target: String, authorization: String?) async -> Grant? {
        guard let components = URLComponents(string: target), components.path == Self.path else { return nil }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        guard let viewer = try? await Authenticator(accounts: services.accounts).viewer(authorization: authorization, queryToken: query["token"])
        else { return nil }
        var since: Int64 = 0
        if let text = query["since"] {
            guard let value = Int64(text), value >= 0 else { return nil }
            since = value
        }
        return Grant(userId: viewer.id, tokenHash: viewer.tokenHash, since: since)
    }

    /// The handler that serves a granted stream.
    func connection(for grant: Grant) -> EventStreamConnection {
        EventStreamConnection(services: services, roster: roster, userId: grant.userId, tokenHash: grant.tokenHash, since: grant.since)
    }
}
