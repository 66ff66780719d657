import AsyncHTTPClient
import ChirpModels
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// A reply from the server under test: status, headers and body.
struct Reply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            Issue.record("cannot decode \(T.self) from \(status) \(String(decoding: body, as: UTF8.self))")
            throw error
        }
    }

    /// The `error.code` of an error envelope (and checks the envelope's shape).
    var errorCode: String? {
        guard let envelope = try? JSONDecoder().decode(APIErrorBody.self, from: body) else { return nil }
        #expect(!envelope.error.message.isEmpty)
        return envelope.error.code
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A logged-in account in a test.
struct Session: Sendable {
    var user: User
    var token: String
    var username: String { user.username }
}

/// Talks to a real Chirp server over loopback HTTP (AsyncHTTPClient), in-process or in a child
/// process alike, with helpers for the calls most tests make.
struct APIHarness: Sendable {
    /// The server's loopback port (for WebSocket and raw clients).
    let port: Int
    let baseURL: String

    init(port: Int) {
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Sends a request; `json` is encoded, `raw` is sent as is.
    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil,
        json: (any Encodable & Sendable)? = nil, raw: String? = nil, headers extra: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(json)))
        } else if let raw {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: raw))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    // MARK: helpers

    func register(_ username: String, password: String = "correct horse", displayName: String? = nil) async throws
        -> Session
    {
        let reply = try await send(
            .POST, "/v1/accounts",
            json: RegisterRequest(username: username, password: password, displayName: displayName))
        try #require(reply.status == 201, "register \(username): \(reply.status) \(reply.text)")
        let auth: AuthResponse = try reply.decode()
        return Session(user: auth.user, token: auth.token)
    }

    func login(_ username: String, password: String = "correct horse") async throws -> Reply {
        try await send(.POST, "/v1/sessions", json: LoginRequest(username: username, password: password))
    }

    func follow(_ follower: Session, _ username: String) async throws {
        let reply = try await send(.PUT, "/v1/users/\(username)/follow", token: follower.token)
        try #require(reply.status == 204, "follow: \(reply.status) \(reply.text)")
    }

    func sendMessage(_ from: Session, to username: String, _ text: String, clientId: String = UUID().uuidString)
        async throws -> Reply
    {
        try await send(
            .PUT, "/v1/conversations/\(username)/messages/\(clientId)", token: from.token, json: TextBody(text: text))
    }

    func messages(_ viewer: Session, with username: String, query: String = "") async throws -> Page<Message> {
        let reply = try await send(.GET, "/v1/conversations/\(username)/messages\(query)", token: viewer.token)
        try #require(reply.status == 200, "messages: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    func events(_ viewer: Session, since: Int64 = 0, limit: Int = 1000, wait: Int? = nil) async throws -> EventsResponse
    {
        let waitQuery = wait.map { "&wait=\($0)" } ?? ""
        let reply = try await send(.GET, "/v1/events?since=\(since)&limit=\(limit)\(waitQuery)", token: viewer.token)
        try #require(reply.status == 200, "events: \(reply.status) \(reply.text)")
        return try reply.decode()
    }

    /// Every stored event of a user, read page by page.
    func allEvents(_ viewer: Session) async throws -> [Event] {
        var all: [Event] = []
        var since: Int64 = 0
        while true {
            let page = try await events(viewer, since: since, limit: 100)
            all += page.events
            if page.events.isEmpty { return all }
            since = page.lastSeq
        }
    }

    /// The answer of a long poll of the viewer's events after `since`, while `repeating` is
    /// sent every 200 ms (and expected to answer 204) until the poll answers: a live-only event
    /// (typing) sent before the poll listens is gone.
    func liveEvents(
        _ viewer: Session, since: Int64, whileRepeating repeating: @escaping @Sendable () async throws -> Reply
    ) async throws -> EventsResponse {
        let listening = Task { try await events(viewer, since: since, wait: 10) }
        let answered = Mutex(false)
        let sending = Task {
            while !answered.withLock({ $0 }) {
                #expect(try await repeating().status == 204)
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        let result = try await listening.value
        answered.withLock { $0 = true }
        try await sending.value
        return result
    }
}
