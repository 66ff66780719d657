import AsyncHTTPClient
import ChirpModels
import ChirpTestSupport
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `chirp serve --tls-cert PEM --tls-key PEM`, end to end against a child process and a
/// certificate made for the test: HTTPS, the event stream over WSS, the connection limits under
/// TLS, plain HTTP to the TLS port, and unusable PEM files.
@Suite("TLS", .serialized)
struct TLSTests {
    /// Client TLS settings that trust the test CA.
    static func trusting(_ certificates: TestCertificates) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(certificates.caFile)]
        return tls
    }

    /// One request through the shared client, trusting `tls`.
    static func send(
        _ tls: TLSConfiguration, _ url: String, method: HTTPMethod = .GET, token: String? = nil, json: String? = nil
    ) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.tlsConfiguration = tls
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    @Test func httpsAndTheEventStreamOverWSSWork() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let server = try await ServerProcess(arguments: [
            "--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile,
        ])
        #expect(server.output.contains("listening on https://127.0.0.1:"))
        let trust = Self.trusting(certificates)
        let base = "https://127.0.0.1:\(server.port)"
        #expect(try await Self.send(trust, base + "/healthz").0 == 200)
        let (status, body) = try await Self.send(
            trust, base + "/v1/accounts", method: .POST, json: #"{"username":"alice","password":"correct horse"}"#)
        #expect(status == 201)
        let token = try JSONDecoder().decode(AuthResponse.self, from: Data(body.utf8)).token

        // The event stream over wss:// receives an event committed after it opened.
        let logger: Logger = {
            var logger = Logger(label: "tls.test")
            logger.logLevel = .critical
            return logger
        }()
        let port = server.port
        let received = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                let first = Mutex<String?>(nil)
                try await WebSocketClient.connect(
                    url: "wss://localhost:\(port)/v1/events/stream?since=0&token=\(token)", tlsConfiguration: trust,
                    logger: logger
                ) { inbound, outbound, _ in
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        guard case .text(let text) = message else { continue }
                        first.withLock { $0 = text }
                        break
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                return first.withLock { $0 }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(300))
                _ = try await Self.send(
                    trust, base + "/v1/tweets/t1", method: .PUT, token: token, json: #"{"text":"over tls"}"#)
                // The stream reads from seq 0, so it gets the event however late it opens; this
                // only bounds the wait (a TLS handshake in a debug build on a loaded machine once
                // took longer than the 10 s this was).
                try await Task.sleep(for: .seconds(90))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(received?.contains("\"tweet.created\"") == true)
        #expect(received?.contains("over tls") == true)
        #expect(try await server.stop(signal: SIGINT) == 0)
    }

    @Test func theConnectionLimitsHoldUnderTLSAndPlainHTTPFailsCleanly() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let tls = ["--tls-cert", certificates.certificateFile, "--tls-key", certificates.keyFile]
        // The head timeout covers the handshake too, so it must leave a loaded machine time for
        // the HTTPS request below: at 1 s, a CI run had that request cut (remoteConnectionClosed).
        let server = try await ServerProcess(arguments: tls + ["--header-timeout", "3"])
        // A connection that never starts its handshake is cut at the head timeout.
        let opened = ContinuousClock.now  // before the connect: the server's clock starts at its accept
        let silent = try await RawConnection.open(port: server.port)
        #expect(try await silent.closedByServer(within: .seconds(10)))
        #expect(ContinuousClock.now - opened >= .milliseconds(2900))
        // Plain HTTP to the TLS port: no HTTP answer, the connection is closed.
        let plain = try await RawConnection.open(port: server.port)
        // On a loaded machine the head timeout may have closed it before the write: either way
        // it must end without an HTTP answer.
        try? await plain.write(RawConnection.healthRequest())
        #expect(try await plain.closedByServer(within: .seconds(5)))
        #expect(!String(decoding: plain.collector.bytes, as: UTF8.self).contains("HTTP/1.1"))
        // And the server still answers HTTPS.
        #expect(try await Self.send(Self.trusting(certificates), "https://127.0.0.1:\(server.port)/healthz").0 == 200)
        #expect(try await server.stop(signal: SIGINT) == 0)
        for connection in [silent, plain] { await connection.close() }

        // The per-address cap counts connections before their handshake: of four, one is
        // refused at once (not after a TLS close) and three keep their place. (Which one is up
        // to the event loops: each connection is set up on its own.)
        let capped = try await ServerProcess(arguments: tls + ["--max-connections-per-address", "3"])
        var four: [RawConnection] = []
        for _ in 0..<4 { four.append(try await RawConnection.open(port: capped.port, from: "127.0.0.5")) }
        let deadline = ContinuousClock.now + .seconds(2)
        while !four.contains(where: { $0.collector.ended }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(four.filter { $0.collector.ended }.count == 1)
        #expect(four.allSatisfy { $0.collector.bytes.isEmpty })
        #expect(try await capped.stop(signal: SIGINT) == 0)
        for connection in four { await connection.close() }
    }

    @Test func unusablePEMFilesStopTheServerWithASentence() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let missing = try await runChirp([
            "serve", "--port", "0", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", certificates.keyFile,
        ])
        #expect(missing.status != 0)
        #expect(missing.output.contains("--tls-cert: cannot read /nonexistent/cert.pem"))
        let swapped = try await runChirp([
            "serve", "--port", "0", "--tls-cert", certificates.keyFile, "--tls-key", certificates.keyFile,
        ])
        #expect(swapped.status != 0)
        #expect(swapped.output.contains("is not a PEM certificate"))
        let alone = try await runChirp(["serve", "--port", "0", "--tls-cert", certificates.certificateFile])
        #expect(alone.status != 0)
        #expect(alone.output.contains("--tls-cert and --tls-key go together"))
    }
}
