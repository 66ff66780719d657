import HTTPTypes
import Hummingbird

/// Cuts the bearer token out of `Authorization: Bearer <token>` (or, for clients that cannot
/// set headers, the WebSocket stream's `?token=`) and asks `AccountService` whose it is.
struct Authenticator: Sendable {
    let accounts: AccountService
    /// `.bySendWrite` for the send route: a session this instance verified earlier is taken as
    /// it is, for the send's write to confirm.
    var accepts: SessionConfirmation = .byRead

    func viewer(for request: Request) async throws -> Viewer {
        try await viewer(authorization: request.headers[.authorization], queryToken: nil)
    }

    /// The viewer for an `Authorization` header value or a `token` query item.
    func viewer(authorization header: String?, queryToken: String?) async throws -> Viewer {
        let token: String
        if let header {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.missingToken }
            token = Self.trimmingOptionalWhitespace(parts[1])
        } else if let queryToken {
            token = queryToken
        } else {
            throw APIError.missingToken
        }
        return try await accounts.viewer(token: token, accepting: accepts)
    }

    /// The text without the spaces and tabs HTTP allows around a value (RFC 9110 §5.6.3).
    static func trimmingOptionalWhitespace(_ text: Substring) -> String {
        let bytes = text.utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }
}
