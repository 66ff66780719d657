import Foundation

/// A push subscription's endpoint URL, and the origin (`aud`) a VAPID token names for it.
public enum PushEndpoint {
    /// `scheme://host[:port]` of `endpoint` (the port only when it is not the scheme's default).
    public static func origin(of endpoint: URL) throws(PushEndpointError) -> String {
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw .notHTTP(endpoint.absoluteString)
        }
        guard let host = endpoint.host?.lowercased(), !host.isEmpty else { throw .noHost(endpoint.absoluteString) }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        switch (scheme, endpoint.port) {
        case (_, nil), ("https", 443), ("http", 80): return "\(scheme)://\(bracketed)"
        case (_, let port?): return "\(scheme)://\(bracketed):\(port)"
        }
    }
}

/// Why an endpoint cannot be pushed to.
public enum PushEndpointError: Error, Equatable {
    /// The URL is not `http:` or `https:`.
    case notHTTP(String)
    /// The URL names no host.
    case noHost(String)
}
