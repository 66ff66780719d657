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
    /// Whether the server sent a frame that is not an event (rather than the connection failing).
    public var isMalformedEvent: Bool
    /// Creates the error.
    public init(_ description: String, isMalformedEvent: Bool = false) {
        self.description = description
        self.isMalformedEvent = isMalformedEvent
    }
}

/// `GET /v1/events/stream` over a WebSocket (HummingbirdWSClient), authenticated with the
/// `Authorization` header.
public struct WebSocketEventSource: LiveEventSource {
    /// The server (its current environment's `http`/`https` URL; the stream uses `ws`/`wss`).
    public let server: Server
    /// The certificates a `wss://` server is checked against.
    public let trust: ClientTrust
    private let logger: Logger

    /// A source for `server`.
    /// - Parameter logger: the WebSocket client's own logging; where it goes is the process's
    ///   logging bootstrap's decision.
    public init(
        server: Server, trust: ClientTrust = .environment, logger: Logger = Logger(label: "chirp.sync.websocket")
    ) {
        self.server = server
        self.trust = trust
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
        let url = url(since: since)
        if url.hasPrefix("wss:"), let problem = trust.problem { throw LiveStreamError(problem) }
        // 4 MiB frames: an encrypted group message's event names every member's devices (about
        // 1.1 MB for the server's largest group of members with the most devices).
        let close = try await WebSocketClient.connect(
            url: url,
            configuration: .init(
                maxFrameSize: 1 << 22, additionalHeaders: headers, autoPing: .enabled(timePeriod: .seconds(20))),
            tlsConfiguration: trust.tlsConfiguration,
            logger: logger
        ) { inbound, _, _ in
            await onOpen()
            let decoder = JSONDecoder()
            for try await message in inbound.messages(maxSize: 1 << 22) {
                guard case .text(let text) = message else { continue }
                let event: Event
                do {
                    event = try decoder.decode(Event.self, from: Data(text.utf8))
                } catch {
                    // Where it failed, never the frame (it may hold message text).
                    Logger(label: "chirp.sync").error(
                        "event did not decode", metadata: ["path": "\(Self.codingPath(of: error))"])
                    throw LiveStreamError(
                        "the server sent a frame that is not an event: \(error)", isMalformedEvent: true)
                }
                try await onEvent(event)
            }
        }
        if let close, close.closeCode != .normalClosure, close.closeCode != .goingAway {
            throw LiveStreamError("the server closed the stream: \(close.closeCode) \(close.reason ?? "")")
        }
    }
}

extension WebSocketEventSource {
    /// The coding path of a decoding error ("payload.message.id"), or its type.
    static func codingPath(of error: any Error) -> String {
        let context: DecodingError.Context? =
            switch error as? DecodingError {
            case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?,
                .dataCorrupted(let context)?:
                context
            default: nil
            }
        guard let context else { return String(describing: type(of: error)) }
        return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
