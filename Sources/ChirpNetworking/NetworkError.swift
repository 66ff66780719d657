/// Every way a request can fail, typed so callers can decide what to do.
public enum NetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server is set offline; nothing was sent.
    case offline
    /// No answer within the timeout.
    case timeout
    /// The caller cancelled the request (its task was cancelled).
    case cancelled
    /// The connection failed before an answer (refused, reset, DNS …).
    case transport(String)
    /// A non-success status without a recognised error body.
    case http(status: Int, body: String)
    /// A non-success status with the server's error envelope.
    case server(status: Int, code: String, message: String, field: String?)
    /// The body did not decode into the expected type; `path` names where.
    case decoding(path: String, reason: String)
    /// `Server.switch(to:)` named an environment it does not know.
    case unknownEnvironment(String)

    /// The HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case .http(let status, _), .server(let status, _, _, _): status
        default: nil
        }
    }

    /// Whether a retry could succeed: connection problems, timeouts, 429 and 5xx.
    public var isTransient: Bool {
        switch self {
        case .timeout, .transport: true
        case .http(let status, _), .server(let status, _, _, _): status == 429 || status == 408 || status >= 500
        default: false
        }
    }

    public var description: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timed out"
        case .cancelled: "cancelled"
        case .transport(let reason): "connection failed: \(reason)"
        case .http(let status, let body): "HTTP \(status): \(body.prefix(200))"
        case .server(let status, let code, let message, _): "\(status) \(code): \(message)"
        case .decoding(let path, let reason):
            "cannot decode response at \(path.isEmpty ? "top level" : path): \(reason)"
        case .unknownEnvironment(let name): "unknown environment \(name)"
        }
    }
}
