import Foundation
import Hummingbird
import Logging
import Testing

@testable import ChirpServer

/// `--trusted-proxy CIDR`: the client address is the last untrusted hop of `X-Forwarded-For`
/// only for connections from a trusted proxy; it is what the per-address limit counts.
@Suite("Trusted proxies")
struct TrustedProxyTests {
    @Test func rangesParseAndMatchIPv4AndIPv6() throws {
        let v4 = try #require(AddressRange("10.1.0.0/16"))
        #expect(v4.contains(try #require(ClientAddress("10.1.255.7"))))
        #expect(!v4.contains(try #require(ClientAddress("10.2.0.1"))))
        #expect(!v4.contains(try #require(ClientAddress("2001:db8::1"))))
        let v6 = try #require(AddressRange("2001:db8::/32"))
        #expect(v6.contains(try #require(ClientAddress("[2001:db8:ffff::9]"))))
        #expect(!v6.contains(try #require(ClientAddress("2001:db9::1"))))
        #expect(!v6.contains(try #require(ClientAddress("10.1.0.1"))))
        let one = try #require(AddressRange("192.0.2.5"))
        #expect(one.contains(try #require(ClientAddress("192.0.2.5"))))
        #expect(!one.contains(try #require(ClientAddress("192.0.2.6"))))
        #expect(try #require(AddressRange("0.0.0.0/0")).contains(try #require(ClientAddress("8.8.8.8"))))
        for bad in ["10.0.0.0/33", "2001:db8::/129", "nonsense", "10.0.0.0/x", ""] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
        #expect(ClientAddress("192.0.2.5")?.description == "192.0.2.5")
        #expect(ClientAddress("2001:db8::1")?.description == "2001:db8::1")
    }

    @Test func theLastUntrustedHopIsTheClientOnlyFromATrustedPeer() throws {
        let proxies = TrustedProxies([try #require(AddressRange("10.0.0.0/8")), try #require(AddressRange("fd00::/8"))])
        let proxy = try #require(ClientAddress("10.0.0.1"))
        let stranger = try #require(ClientAddress("203.0.113.9"))
        func client(_ peer: ClientAddress, _ header: [String]) -> String {
            proxies.client(peer: peer, forwardedFor: header).description
        }
        #expect(client(proxy, ["198.51.100.1"]) == "198.51.100.1")
        // The client may write anything to the left; our proxies append to the right.
        #expect(client(proxy, ["1.2.3.4, 198.51.100.1, 10.0.0.2"]) == "198.51.100.1")
        #expect(client(proxy, ["1.2.3.4", "198.51.100.1, fd00::5"]) == "198.51.100.1")
        #expect(client(proxy, ["2001:db8::7"]) == "2001:db8::7")
        #expect(client(proxy, ["10.0.0.3, 10.0.0.2"]) == "10.0.0.3")  // only proxies: the first
        #expect(client(proxy, []) == "10.0.0.1")
        #expect(client(proxy, ["garbage, 198.51.100.1"]) == "10.0.0.1")
        #expect(client(stranger, ["198.51.100.1"]) == "203.0.113.9")
    }

    @Test func forwardedClientsAreCountedFromATrustedProxyAndIgnoredFromOthers() async throws {
        let configuration = TestServer.configuration {
            $0.maxConnectionsPerAddress = 2
            $0.trustedProxies = [AddressRange("127.0.0.1/32")!]
        }
        try await TestServer.run(configuration) { api in
            func connection(from source: String, forwardedFor client: String) async throws -> RawConnection {
                let connection = try await RawConnection.open(port: api.port, from: source)
                // A connection refused at accept may be closed before this write.
                try? await connection.write(RawConnection.healthRequest("X-Forwarded-For: 192.0.2.66, \(client)\r\n"))
                return connection
            }
            // From the trusted proxy: two connections for client 198.51.100.7 are answered, a
            // third is closed unanswered, and another client's is answered.
            let first = try await connection(from: "127.0.0.1", forwardedFor: "198.51.100.7")
            let second = try await connection(from: "127.0.0.1", forwardedFor: "198.51.100.7")
            #expect(try await first.receivedHealthAnswers(1, within: .seconds(10)))
            #expect(try await second.receivedHealthAnswers(1, within: .seconds(10)))
            let third = try await connection(from: "127.0.0.1", forwardedFor: "198.51.100.7")
            #expect(try await third.closedByServer(within: .seconds(10)))
            #expect(third.collector.bytes.isEmpty)
            let otherClient = try await connection(from: "127.0.0.1", forwardedFor: "198.51.100.8")
            #expect(try await otherClient.receivedHealthAnswers(1, within: .seconds(10)))

            // From an untrusted peer the header is ignored: the peer's own address is counted,
            // so a third connection is refused whatever client each one names.
            let a = try await connection(from: "127.0.0.9", forwardedFor: "198.51.100.20")
            let b = try await connection(from: "127.0.0.9", forwardedFor: "198.51.100.21")
            #expect(try await a.receivedHealthAnswers(1, within: .seconds(10)))
            #expect(try await b.receivedHealthAnswers(1, within: .seconds(10)))
            let c = try await connection(from: "127.0.0.9", forwardedFor: "198.51.100.22")
            #expect(try await c.closedByServer(within: .seconds(10)))
            #expect(c.collector.bytes.isEmpty)
            for each in [first, second, otherClient, a, b] { await each.close() }
        }
    }

    @Test func handlersSeeTheForwardedClientFromATrustedPeerOnly() async throws {
        let router = Router(context: ChirpRequestContext.self)
        router.middlewares.add(ForwardedClientMiddleware(proxies: TrustedProxies([AddressRange("127.0.0.1/32")!])))
        router.get("/client") { _, context in context.clientAddress?.description ?? "none" }
        var logger = Logger(label: "chirp.test")
        logger.logLevel = .critical
        try await TestServer.serve(
            logger: logger,
            makeApp: { onListening in
                Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { channel in await onListening("127.0.0.1", channel.localAddress?.port ?? 0) },
                    logger: logger)
            }
        ) { api async throws -> Void in
            #expect(try await Self.clientSeen(port: api.port, from: "127.0.0.1") == "2001:db8::5")
            #expect(try await Self.clientSeen(port: api.port, from: "127.0.0.4") == "127.0.0.4")
        }
    }

    /// What `/client` answers to a request from `source` forwarded for two hops.
    static func clientSeen(port: Int, from source: String) async throws -> String {
        let connection = try await RawConnection.open(port: port, from: source)
        try await connection.write(
            "GET /client HTTP/1.1\r\nHost: chirp\r\nX-Forwarded-For: 192.0.2.1, 2001:db8::5\r\nConnection: close\r\n\r\n"
        )
        // The server closes after its answer (`Connection: close`); the bound only matters when
        // the answer never comes, so it is generous for a machine busy with the other suites.
        _ = try await connection.closedByServer(within: .seconds(30))
        return String(String(decoding: connection.collector.bytes, as: UTF8.self).split(separator: "\r\n").last ?? "")
    }
}
