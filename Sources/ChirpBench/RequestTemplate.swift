import Foundation
import NIOCore
import NIOHTTP1

/// Requests of the load generator, with their headers built once per connection.
enum RequestTemplate {
    /// `GET path`, with a bearer token when given.
    static func get(host url: URL, path: String, token: String?) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader(url))
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
    }

    /// `PUT /v1/conversations/{recipient}/messages/{idPrefix}{turn}` to the recipients in turn,
    /// each text starting with `t` and the send time on `clock` (12 digits, so every body has
    /// the same length and the headers never change).
    static func message(
        host url: URL, token: String, recipients: [String], idPrefix: String, clock: LoadClock
    ) -> @Sendable (Int) -> (head: HTTPRequestHead, body: ByteBuffer?) {
        let bodyLength = #"{"text":"t000000000000 load test message"}"#.utf8.count
        var headers = jsonHeaders(host: url, token: token)
        headers.add(name: "Content-Length", value: String(bodyLength))
        let fixedHeaders = headers
        return { turn in
            let recipient = recipients[turn % recipients.count]
            let head = HTTPRequestHead(
                version: .http1_1, method: .PUT, uri: "/v1/conversations/\(recipient)/messages/\(idPrefix)\(turn)",
                headers: fixedHeaders)
            return (head, ByteBuffer(string: #"{"text":"t\#(stamp(clock.microseconds())) load test message"}"#))
        }
    }

    /// `PUT uri` with a JSON body of `length` bytes: the head of a request whose body is made
    /// for each request (an envelope sealed at send time), its other headers built once.
    static func put(host url: URL, token: String) -> @Sendable (_ uri: String, _ length: Int) -> HTTPRequestHead {
        let fixedHeaders = jsonHeaders(host: url, token: token)
        return { uri, length in
            var headers = fixedHeaders
            headers.add(name: "Content-Length", value: String(length))
            return HTTPRequestHead(version: .http1_1, method: .PUT, uri: uri, headers: headers)
        }
    }

    /// A send time in microseconds as 12 digits, so every body stamped with it has one length.
    static func stamp(_ microseconds: Int64) -> String {
        let digits = String(microseconds)
        return String(repeating: "0", count: max(0, 12 - digits.utf8.count)) + digits
    }

    /// Host, bearer token and JSON content type.
    private static func jsonHeaders(host url: URL, token: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: hostHeader(url))
        headers.add(name: "Authorization", value: "Bearer \(token)")
        headers.add(name: "Content-Type", value: "application/json")
        return headers
    }

    private static func hostHeader(_ url: URL) -> String { "\(url.host ?? "127.0.0.1"):\(url.port ?? 80)" }
}
