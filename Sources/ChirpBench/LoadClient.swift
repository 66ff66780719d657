import AsyncHTTPClient
import ChirpCommandSupport
import ChirpModels
import Foundation
import NIOCore
import NIOHTTP1

/// Raw HTTP for the load generator: AsyncHTTPClient with one keep-alive connection per
/// concurrent worker and bodies built once, so the client costs as little as possible.
final class LoadClient: Sendable {
    let http: HTTPClient
    let baseURL: String

    init(baseURL: URL, connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(connections, 1))
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.baseURL =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
    }

    /// Sends a request; returns the status and body.
    func request(_ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil) async throws -> (
        status: Int, body: String
    ) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 22)
        return (Int(response.status.code), String(buffer: body))
    }

    /// Sends a request that must answer `expected`; otherwise fails naming `what` was being
    /// done, with the status and the start of the body. Returns the body.
    @discardableResult
    func request(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil, expecting expected: Int,
        _ what: @autoclosure () -> String
    ) async throws -> String {
        let reply = try await request(method, path, token: token, json: json)
        guard reply.status == expected else {
            throw CommandFailure("\(what()) failed: \(reply.status) \(reply.body.prefix(300))")
        }
        return reply.body
    }

    /// Creates an account (password `bench-password`) and returns its token.
    func register(_ name: String) async throws -> BenchAccount {
        let reply = try await request(
            .POST, "/v1/accounts", json: #"{"username":"\#(name)","password":"bench-password"}"#)
        guard reply.status == 201, let data = reply.body.data(using: .utf8),
            let auth = try? JSONDecoder().decode(AuthResponse.self, from: data)
        else {
            throw CommandFailure("registering \(name) failed: \(reply.status) \(reply.body.prefix(200))")
        }
        return BenchAccount(name: name, token: auth.token, id: auth.user.id)
    }

    /// Registers `names` (see `register(_:)`), at most `inFlight` at once: each is a bcrypt hash
    /// on the server, and many queued on the client's pool time out waiting for it. In the
    /// order of `names`.
    func register(_ names: [String], inFlight: Int = 8) async throws -> [BenchAccount] {
        try await InFlight.map(names, atOnce: inFlight) { try await self.register($0) }
    }

    func shutdown() async { try? await http.shutdown() }
}

/// An account the benchmarks use.
struct BenchAccount: Sendable {
    var name: String
    var token: String
    /// The user's id (what an encrypted direct conversation's id is made of); empty when the
    /// account was not registered through `LoadClient.register`.
    var id = ""
}
