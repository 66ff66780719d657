import ChirpClient
import ChirpModels
import ChirpModules
import ChirpNetworking
import ChirpTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients against `chirp serve --tls-cert --tls-key` with a certificate made for the test:
/// `https://` server URLs, the live stream over `wss://`, and the CA trusted through
/// `ClientTrust` (in process) or `CHIRP_CA_CERT` (the CLI).
@Suite("Clients over TLS")
struct ClientTLSTests {
    @Test func aUserSessionSyncsOverHTTPSAndWSS() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        // localhost: the WebSocket client sends the URL's host as SNI, which cannot be an IP address.
        let base = URL(string: "https://localhost:\(server.port)")!
        let trust = ClientTrust(caCertificateFile: certificates.caFile)

        // Not trusting the test CA, the client refuses the server.
        let stranger = ChirpAPIClient(
            baseURL: base, transport: AsyncHTTPClientTransport(trust: ClientTrust(caCertificateFile: nil)))
        await #expect(throws: NetworkError.self) { try await stranger.send(ChirpEndpoints.Health()) }

        let alice = ChirpAPIClient(baseURL: base, transport: AsyncHTTPClientTransport(trust: trust))
        let bob = ChirpAPIClient(baseURL: base, transport: AsyncHTTPClientTransport(trust: trust))
        #expect(try await alice.send(ChirpEndpoints.Health()).status == "ok")
        try await alice.register("alice", password: "alice-password")
        try await bob.register("bob", password: "bob-password")
        _ = try await bob.send(ChirpEndpoints.Follow("alice"))

        // bob's session goes live over wss:// and receives what alice sends.
        let root = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let session = try UserSession(
            context: AppContext(root: root).switchUser(to: "bob"), api: bob,
            source: WebSocketEventSource(server: bob.client.server, trust: trust))
        let sync = LiveSync()
        let recorder = LiveSyncTests.Recorder()
        sync.add(recorder)
        sync.start(session)
        try await LiveSyncTests.waitUntil { recorder.log.contains("live") }
        _ = try await alice.send(ChirpEndpoints.SendMessage(to: "bob", clientMessageId: "m1", text: "over wss"))
        try await LiveSyncTests.waitUntil {
            try await session.messages(with: "alice", limit: 10, refresh: false).items.contains {
                $0.text == "over wss"
            }
        }
        #expect(try await session.messages(with: "alice", limit: 10, refresh: false).items.map(\.text) == ["over wss"])
        #expect(recorder.log.starts(with: ["connecting", "live"]))
        sync.stop()
        _ = try await server.stop(signal: SIGTERM)
    }

    @Test func theCLITrustsTheCANamedByCHIRP_CA_CERT() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        defer { try? FileManager.default.removeItem(at: server.dataDirectory) }
        let home = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let arguments = ["register", "carol", "--home", home.path, "--server", "https://127.0.0.1:\(server.port)"]
        let untrusted = try await runChirp(arguments, input: "password-carol\n")
        #expect(untrusted.status != 0)
        let trusted = try await runChirp(
            arguments, input: "password-carol\n", environment: [ClientTrust.environmentVariable: certificates.caFile])
        #expect(trusted.status == 0, "\(trusted.output)")
        _ = try await server.stop(signal: SIGTERM)
    }
}
