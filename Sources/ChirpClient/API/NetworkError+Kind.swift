import ChirpNetworking

extension NetworkError {
    /// A short name for the kind of failure, safe for logs: no URL, token, body or text.
    var kind: String {
        switch self {
        case .offline: "offline"
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .transport: "unreachable"
        case .http(let status, _): "status \(status)"
        case .server(let status, let code, _, _): "status \(status) \(code)"
        case .decoding: "decoding"
        case .unknownEnvironment: "environment"
        }
    }
}
