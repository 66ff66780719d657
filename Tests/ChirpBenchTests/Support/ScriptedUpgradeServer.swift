import Crypto
import Foundation
import NIOCore
import NIOPosix

/// A WebSocket server of one connection that says exactly what a test scripts, byte for byte:
/// it reads the upgrade request's head, answers `101 Switching Protocols` with `withAnswer`
/// after it in the same write (frames that reach the client in one read with the answer, as
/// a server's first events do when the client is slow to read), then writes `afterwards` a
/// moment later. For the bench's own WebSocket client, `StreamSocket`.
final class ScriptedUpgradeServer: Sendable {
    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    init(withAnswer: [UInt8], afterwards: [UInt8] = []) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        Script(withAnswer: withAnswer, afterwards: afterwards))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func close() async { try? await channel.close() }

    /// A server frame (unmasked, final) of `opcode` with `payload` (under 126 bytes).
    static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126)
        return [0x80 | opcode, UInt8(payload.count)] + payload
    }

    /// A text frame of `text`.
    static func text(_ text: String) -> [UInt8] { frame(opcode: 0x1, Array(text.utf8)) }

    /// A close frame with `code` and `reason`.
    static func close(code: UInt16, reason: String) -> [UInt8] {
        frame(opcode: 0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// The handler of the one connection.
    private final class Script: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let withAnswer: [UInt8]
        private let afterwards: [UInt8]
        private var head = ""
        private var answered = false

        init(withAnswer: [UInt8], afterwards: [UInt8]) {
            self.withAnswer = withAnswer
            self.afterwards = afterwards
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }  // the client's pongs and close frames
            head += String(buffer: unwrapInboundIn(data))
            guard head.contains("\r\n\r\n") else { return }
            answered = true
            let key =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            let answer =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Array(answer.utf8) + withAnswer)), promise: nil)
            guard !afterwards.isEmpty else { return }
            let later = ByteBuffer(bytes: afterwards)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(100)) {
                bound.value.writeAndFlush(NIOAny(later), promise: nil)
            }
        }
    }
}
