import Foundation
import Testing

/// A request NIO's parser refuses gets 400 with the error envelope before the connection
/// closes (issue 36); a request with both `Content-Length` and `Transfer-Encoding` was closed
/// with no answer.
@Suite("Ambiguous framing")
struct AmbiguousFramingTests {
    static func answer(to request: String, port: Int) async throws -> String {
        let connection = try await RawConnection.open(port: port)
        try await connection.write(request)
        #expect(try await connection.closedByServer(within: .seconds(10)), "the connection ends")
        await connection.close()
        return String(decoding: connection.collector.bytes, as: UTF8.self)
    }

    @Test func bothContentLengthAndTransferEncodingAre400() async throws {
        try await TestServer.run { api in
            let both = try await Self.answer(
                to: "POST /v1/sessions HTTP/1.1\r\nHost: chirp\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                port: api.port)
            #expect(both.hasPrefix("HTTP/1.1 400"), "\(both)")
            #expect(both.contains(#""code":"bad_request""#) && both.contains("frames its body two ways"), "\(both)")
            let garbled = try await Self.answer(to: "GET /healthz HTTP/1.1\r\nHo st: chirp\r\n\r\n", port: api.port)
            #expect(garbled.hasPrefix("HTTP/1.1 400") && garbled.contains(#""code":"bad_request""#), "\(garbled)")
            // The server still answers others.
            #expect(try await api.send(.GET, "/healthz").status == 200)
        }
    }
}
