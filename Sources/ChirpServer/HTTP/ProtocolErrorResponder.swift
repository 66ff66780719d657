import ChirpModels
import Foundation
import NIOCore
import NIOHTTP1

/// Answers a request NIO's parser refuses (a head it cannot read, both `Content-Length` and
/// `Transfer-Encoding`, which could frame the body two ways) with 400 and the error envelope,
/// then lets the connection close; without it the connection closed with no answer. NIO's
/// `HTTPServerProtocolErrorHandler` with the API's body: it sits right after the decoder and
/// writes only when no response is under way.
final class ProtocolErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var responding = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if !responding {
            let body = ByteBuffer(bytes: Self.envelope(for: parserError))
            let headers = HTTPHeaders([
                ("Connection", "close"), ("Content-Type", "application/json"),
                ("Content-Length", String(body.readableBytes)),
            ])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responding = true
        case .end: responding = false
        default: break
        }
        context.write(data, promise: promise)
    }

    /// The envelope's bytes: `bad_request` and what was wrong, in general terms.
    static func envelope(for error: HTTPParserError) -> Data {
        let message: String
        switch error {
        case .unexpectedContentLength:
            message = "A request may not carry both Content-Length and Transfer-Encoding: it frames its body two ways."
        case .invalidContentLength:
            message = "The Content-Length header is not a valid length."
        default:
            message =
                "The request is not well-formed HTTP/1.1: its head cannot be read, or it frames its body two ways."
        }
        return (try? JSONEncoder().encode(APIErrorBody(code: "bad_request", message: message))) ?? Data()
    }
}
