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

    /// What `authorize` decided about an upgrade.
    enum Decision: Sendable {
        /// The stream opens.
        case granted(Grant)
        /// Not the stream's path, a missing or bad token, or a bad `since`: not upgraded (a plain
        /// request goes to the router, which answers 401, 400 or 426 with the error envelope;
        /// an upgrade request is answered 400).
        case refused
        /// The token could not be checked: the database cannot serve right now. Answered 503
        /// with `Retry-After`, as any request then, so a client retries instead of giving up.
        case unavailable
    }

    /// A grant when the request target is the stream's path, the token (in `Authorization` or
    /// `?token=`) is valid and `since` is absent or a seq.
    func authorize(target: String, authorization: String?) async -> Decision {
        guard let components = URLComponents(string: target), components.path == Self.path else { return .refused }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let viewer: Viewer
        do {
            viewer = try await Authenticator(accounts: services.accounts).viewer(
                authorization: authorization, queryToken: query["token"])
        } catch let error as APIError where error.status != .serviceUnavailable {
            return .refused
        } catch {
            return .unavailable
        }
        var since: Int64 = 0
        if let text = query["since"] {
            guard let value = Int64(text), value >= 0 else { return .refused }
            since = value
        }
        return .granted(Grant(userId: viewer.id, tokenHash: viewer.tokenHash, since: since))
    }

    /// The handler that serves a granted stream.
    func connection(for grant: Grant) -> EventStreamConnection {
        EventStreamConnection(
            services: services, roster: roster, userId: grant.userId, tokenHash: grant.tokenHash, since: grant.since)
    }
}
