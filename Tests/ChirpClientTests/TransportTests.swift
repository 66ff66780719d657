import ChirpClient
import ChirpModels
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

/// Both real transports against a real server: same answers, same error mapping.
@Suite("Transports against a real server")
struct TransportTests {
    @Test(arguments: ["AsyncHTTPClient", "URLSession"])
    func transportsAgree(_ name: String) async throws {
        let server = try await ServerProcess()
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let transport: any Transport = name == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
        let client = ChirpAPIClient(baseURL: server.baseURL, transport: transport)
        let user = try await client.register("transport", password: "transport-password")
        // GET /v1/me is the user as registration answered it, and whether they are an operator.
        var me = user
        me.operator = false
        #expect(try await client.send(ChirpEndpoints.Me()) == me)
        _ = try await client.send(ChirpEndpoints.PostTweet(clientTweetId: "t", text: "über 🐦"))
        #expect(try await client.send(ChirpEndpoints.Timeline()).items.first?.text == "über 🐦")
        await #expect(
            throws: NetworkError.server(
                status: 404, code: "user_not_found", message: "There is no user named ghost.", field: nil)
        ) {
            try await client.send(ChirpEndpoints.GetUser("ghost"))
        }
        let raw = try await transport.perform(
            TransportRequest(method: .get, url: server.baseURL.appendingPathComponent("healthz")))
        #expect(raw.status == 200 && raw.header("content-type")?.hasPrefix("application/json") == true)
        // A long-poll longer than the timeout times out. (URLSession on Linux rounds timeouts
        // down to whole seconds, one more reason AsyncHTTPClient is the default.)
        let impatient = APIClient(
            server: Server(baseURL: server.baseURL), transport: transport, timeout: .seconds(2),
            credentials: { ["Authorization": "Bearer \(client.token ?? "")"] }, sleep: { _ in })
        #expect(
            try await impatient.send(WithRetries(.none, ChirpEndpoints.Events(since: 0))).lastSeq == 1,
            "a quick answer is in time")
        // (The wait is far longer than the timeout, so a loaded machine cannot let the answer
        // slip in before the deadline is noticed.)
        await #expect(throws: NetworkError.timeout) {
            try await impatient.send(WithRetries(.none, ChirpEndpoints.Events(since: 1, wait: 25)))
        }
    }
}
