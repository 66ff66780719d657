import ChirpModels
import ChirpNetworking
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging

/// A live connection to the user's event stream. `stream` connects, calls `onOpen`, then
/// `onEvent` for each event in order, waiting for it before reading the next frame (so a slow
/// consumer slows the socket instead of growing a buffer), and returns when the server closes
/// the connection; it throws when the connection cannot be made or breaks.
public protocol LiveEventSource: Sendable {
    func stream(
        since: Int64, token: String?,
        onOpen: @escaping @Sendable () async -> Void,
        onEvent: @escaping @Sendable (Event) async throws -> Void
    ) async throws
}

/// Why a live connection ended.
public struct LiveStreamError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}

/// `GET /v1/events/stream` over a WebSocket (HummingbirdWSClient), authenticated with the
/// `Authorization` header.
public struct WebSocketEventSource: LiveEventSource {
    /// The server (its current environment's `http`/`https` URL; the stream uses `ws`/`wss`).
    public let server: Server
    private let logger: Logger

    /// A source for `server`.
    public init(server: Server, logger: Logger = Logger(label: "chirp.sync.websocket")) {
        self.server = server
        self.logger = logger
    }

    /// The stream's URL for events after `since`.
    func url(since: Int64) -> String {
        let baseURL = server.baseURL
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.scheme = baseURL.scheme == "https" ? "wss" : "ws"
        components.path = components.path.trimmingSuffix("/") + APIRoute.eventsStream.path()
        components.queryItems = [URLQueryItem(name: "since", value: String(since))]
        return components.string!
    }

    public func stream(
        since: Int64, token: String?,
        onOpen: @escaping @Sendable () async -> Void,
        onEvent: @escaping @Sendable (Event) async throws -> Void
    ) async throws {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        let close = try await WebSocketClient.connect(
            url: url(since: since),
            configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers, autoPing: .enabled(timePeriod: .seconds(20))),
            logger: logger
        ) { inbound, _, _ in
            await onOpen()
            let decoder = JSONDecoder()
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let event: Event
                do {
                    event = try decoder.decode(Event.self, from: Data(text.utf8))
                } catch {
                    throw LiveStreamError("the server sent a frame that is not an event: \(error)")
                }
                try await onEvent(event)
            }
        }
        if let close, close.closeCode != .normalClosure, close.closeCode != .goingAway {
            throw LiveStreamError("the server closed the stream: \(close.closeCode) \(close.reason ?? "")")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
