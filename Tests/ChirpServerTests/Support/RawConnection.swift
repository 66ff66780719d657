import Foundation
import NIOCore
import NIOPosix

/// A plain TCP connection to the server under test, from a chosen loopback source address,
/// that sends exactly what the test writes and keeps what it receives (`ByteCollector`).
struct RawConnection {
    let channel: any Channel
    let collector: ByteCollector

    /// Connects to `127.0.0.1:port` from `source` (any 127.x.y.z; 127.0.0.1 by default).
    static func open(
        port: Int, from source: String = "127.0.0.1", group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> RawConnection {
        let collector = ByteCollector()
        let channel = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .bind(to: try SocketAddress(ipAddress: source, port: 0))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, collector: collector)
    }

    func write(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Whether the server closed the connection within `timeout`.
    func closedByServer(within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !collector.ended, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return collector.ended
    }

    /// Waits for the `count`-th complete response (ending in `"status":"ok"}`, a `/healthz`
    /// answer); false if it did not come within `timeout`.
    func receivedHealthAnswers(_ count: Int, within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while answers < count, !collector.ended, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return answers >= count
    }

    private var answers: Int {
        String(decoding: collector.bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 200").count - 1
    }

    func close() async {
        try? await channel.close()
    }

    /// A keep-alive `GET /healthz`, with `headers` (`"Name: value\r\n"` each).
    static func healthRequest(_ headers: String = "") -> String {
        "GET /healthz HTTP/1.1\r\nHost: chirp\r\n\(headers)\r\n"
    }
}
