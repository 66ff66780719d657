import NIOCore
import Synchronization
import Testing

@testable import ChirpBench

/// The bench's event-stream client (`StreamSocket`): it reads every frame a server sends,
/// those that came in one read with the upgrade's answer too, and it notes why a stream ended.
@Suite("The bench's event-stream WebSocket")
struct StreamSocketTests {
    /// A server's first events can reach the client in the same read as `101 Switching
    /// Protocols`. NIO's client pipeline dropped the bytes after the answer by default, so the
    /// bench lost a stream's first frames and, when the last of them was cut by the read, began
    /// decoding mid-frame: protocol error, close (1 stream in 5 of `chirp bench encrypted`'s
    /// encrypted group, whose admin's stream starts with a long backlog).
    @Test func framesInTheSameReadAsTheUpgradeAnswerAreRead() async throws {
        let second = ScriptedUpgradeServer.text("second")
        let server = try await ScriptedUpgradeServer(
            withAnswer: ScriptedUpgradeServer.text("first") + second.prefix(3), afterwards: Array(second.dropFirst(3)))
        let texts = Mutex<[String]>([])
        let ending = StreamEnding()
        let channel = try await StreamSocket.open(
            host: "127.0.0.1", port: server.port, token: "t", ending: ending
        ) { frame in
            texts.withLock { $0.append(String(buffer: frame)) }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while texts.withLock({ $0.count }) < 2, ending.cause == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(texts.withLock { $0 } == ["first", "second"])
        #expect(ending.cause == nil, "\(String(describing: ending.cause))")
        try? await channel.close()
        await server.close()
    }

    /// A close frame from the server is noted with its code and reason, not counted as a
    /// connection that merely ended.
    @Test func aServersCloseFrameIsNotedWithItsCodeAndReason() async throws {
        let server = try await ScriptedUpgradeServer(
            withAnswer: [], afterwards: ScriptedUpgradeServer.close(code: 1008, reason: "too many streams"))
        let ending = StreamEnding()
        let channel = try await StreamSocket.open(host: "127.0.0.1", port: server.port, token: "t", ending: ending) {
            _ in
        }
        try await channel.closeFuture.get()
        #expect(ending.cause == .closeFrame(code: 1008, reason: "too many streams"))
        #expect("\(ending.cause!)" == "the server closed it (1008 too many streams)")
        await server.close()
    }
}
