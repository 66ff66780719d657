import ChirpModels
import ChirpServer
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Pings on `GET /v1/events/stream`, end to end: a client that answers keeps its stream, one
/// that does not is closed with 1001.
@Suite("Event stream liveness")
struct StreamLivenessTests {
    static func configuration(pingInterval: Duration) -> ServerConfiguration {
        TestServer.configuration { $0.streamPingInterval = pingInterval }
    }

    @Test func aClientThatNeverAnswersPingsIsClosedWithGoingAway() async throws {
        try await TestServer.run(Self.configuration(pingInterval: .milliseconds(200))) { api in
            let bob = try await api.register("bob")
            let port = api.port
            let received = try await SilentWebSocket.connect(
                port: port, path: "/v1/events/stream?since=0&token=\(bob.token)", timeout: .seconds(45))
            #expect(received.upgraded, "the server switched protocols")
            #expect(received.pings >= 1, "the server pinged before giving up")
            #expect(received.closeCode == 1001)
            #expect(received.closeReason == "no answer to ping")
            #expect(received.endedByServer, "the server closed the connection within the time limit")
        }
    }

    @Test func aClientThatAnswersPingsKeepsItsStreamAcrossManyRounds() async throws {
        // Two seconds per round leave a loaded machine time to answer each ping (with one, a
        // full-suite run at load 6 once saw a pong arrive after the next ping was due).
        try await TestServer.run(Self.configuration(pingInterval: .seconds(2))) { api in
            let alice = try await api.register("alice")
            let bob = try await api.register("bob")
            try await api.follow(bob, "alice")
            _ = try await api.sendMessage(alice, to: "bob", "before the pings")
            let port = api.port
            // HummingbirdWSClient answers pings; after three ping rounds the stream still delivers.
            let events = try await WebSocketStreamTests.collect(
                port: port, query: "?since=0&token=\(bob.token)", count: 2, timeout: .seconds(45)
            ) {
                try await Task.sleep(for: .seconds(6.5))
                _ = try await api.sendMessage(alice, to: "bob", "after the pings")
            }
            let texts = events.compactMap { event -> String? in
                guard case .messageCreated(let message) = event.payload else { return nil }
                return message.text
            }
            #expect(texts == ["before the pings", "after the pings"])
        }
    }
}

extension StreamLivenessTests {
    /// A client that shuts its side of a stream is let go at once, not at the next ping (the
    /// default interval, far longer than the wait here): its connection no longer counts
    /// against its address's limit.
    @Test func aClientThatShutsItsSideOfAStreamIsLetGoAtOnce() async throws {
        try await TestServer.run { api in
            let bob = try await api.register("bob")
            let connection = try await RawConnection.open(port: api.port)
            try await connection.write(
                "GET /v1/events/stream?since=0&token=\(bob.token) HTTP/1.1\r\nHost: 127.0.0.1:\(api.port)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            let deadline = ContinuousClock.now + .seconds(10)
            while !String(decoding: connection.collector.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 101"),
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(String(decoding: connection.collector.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "upgraded")
            try await connection.channel.close(mode: .output)
            #expect(try await connection.closedByServer(within: .seconds(5)))
        }
    }
}

/// A WebSocket client that upgrades, then only listens: it never answers a ping. It reports
/// what the server sent until the server closed the connection or `timeout` passed.
struct SilentWebSocket {
    struct Received: Sendable {
        var upgraded = false
        /// The response's head (status line and fields), as sent.
        var head = ""
        var pings = 0
        var closeCode: UInt16?
        var closeReason: String?
        var endedByServer = false
    }

    static func connect(port: Int, path: String, timeout: Duration) async throws -> Received {
        let collector = ByteCollector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        let deadline = ContinuousClock.now + timeout
        while !collector.ended, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let ended = collector.ended
        if !ended { try? await channel.close() }
        var received = parse(collector.bytes)
        received.endedByServer = ended
        return received
    }

    /// Reads the 101 response, then unmasked server frames: counts pings, decodes a close.
    static func parse(_ bytes: [UInt8]) -> Received {
        var received = Received()
        guard let head = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return received }
        received.head = String(decoding: bytes[..<head.lowerBound], as: UTF8.self)
        received.upgraded = received.head.hasPrefix("HTTP/1.1 101")
        var index = head.upperBound
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            index += 2
            if length == 126, index + 2 <= bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            }
            guard index + length <= bytes.count else { break }
            let payload = Array(bytes[index..<index + length])
            index += length
            switch opcode {
            case 0x9: received.pings += 1
            case 0x8 where payload.count >= 2:
                received.closeCode = UInt16(payload[0]) << 8 | UInt16(payload[1])
                received.closeReason = String(decoding: payload[2...], as: UTF8.self)
            default: break
            }
        }
        return received
    }
}

/// Keeps every byte a channel reads, and whether the other side closed it.
final class ByteCollector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let state = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var ended: Bool { state.withLock { $0.ended } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        state.withLock { $0.bytes += buffer.readableBytesView }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLock { $0.ended = true }
    }
}
