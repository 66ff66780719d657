import ChirpModels
import Foundation

/// Which push endpoints a subscription may name. The server will POST to it on the
/// subscriber's behalf, so an endpoint is `https://` to a public host: never this machine or
/// a private network by name or address (the server is not a way into them), unless the
/// operator allowed that host (`ServerConfiguration.pushAllowedHosts`), which may then also be
/// plain HTTP. A name that resolves to a private address is not caught here (noted in
/// docs/server.md).
struct PushEndpointPolicy: Sendable {
    var allowedHosts: Set<String>

    init(allowedHosts: [String]) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// The endpoint as a URL when it may be used; 422 `invalid_endpoint` otherwise.
    func check(_ endpoint: String) throws -> URL {
        guard endpoint.utf8.count <= 2_048, let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(), !host.isEmpty, url.user == nil
        else { throw Self.invalid("The endpoint is not a URL.") }
        let allowed = allowedHosts.contains(host)
        switch scheme {
        case "https":
            guard allowed || !Self.isLocal(host) else {
                throw Self.invalid("The endpoint names this machine or a private network.")
            }
        case "http":
            guard allowed else { throw Self.invalid("The endpoint must be https://.") }
        default:
            throw Self.invalid("The endpoint must be https://.")
        }
        return url
    }

    static func invalid(_ message: String) -> APIError {
        APIError(.unprocessableContent, APIErrorCode.invalidEndpoint, message, field: "endpoint")
    }

    /// Whether `host` names this machine or a private, link-local or reserved network.
    static func isLocal(_ host: String) -> Bool {
        let name = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local")
            || name.hasSuffix(".internal")
        {
            return true
        }
        if name.contains(":") { return true }  // IPv6 literals: push services are reached by name
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let parts = labels.map { Int($0) }
        guard parts.count == 4, parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! <= 255 }) else {
            // Other numeric forms a resolver reads as an address (`2130706433`, `0x7f.1`, `017.0.0.1`).
            return labels.allSatisfy { label in
                let text = label.lowercased()
                return !text.isEmpty
                    && (text.allSatisfy(\.isNumber)
                        || (text.hasPrefix("0x") && text.dropFirst(2).allSatisfy(\.isHexDigit)))
            }
        }
        // A leading zero reads as octal to some resolvers: only the plain decimal form passes.
        guard labels.allSatisfy({ $0 == "0" || !$0.hasPrefix("0") }) else { return true }
        let (a, b) = (parts[0]!, parts[1]!)
        return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b))
            || (a == 192 && b == 168) || (a == 100 && (64...127).contains(b)) || a >= 224
    }
}
