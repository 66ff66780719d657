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

    /// The addresses an endpoint may not name: this machine, private, shared, link-local,
    /// multicast and reserved networks, in both families (`AddressRange`, as
    /// `--trusted-proxy` parses them).
    static let nonPublicRanges: [AddressRange] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.168.0.0/16", "224.0.0.0/3", "::/127", "fc00::/7", "fe80::/10", "ff00::/8",
    ].compactMap(AddressRange.init)

    /// Whether `host` names this machine or a private, link-local or reserved network.
    static func isLocal(_ host: String) -> Bool {
        let name = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local")
            || name.hasSuffix(".internal")
        {
            return true
        }
        if let address = ClientAddress(name) {
            return nonPublicRanges.contains { $0.contains(address) }
        }
        // The other numeric forms a resolver reads as an address (`2130706433`, `0x7f.1`,
        // `017.0.0.1`, which `ClientAddress` refuses).
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            let text = label.lowercased()
            return !text.isEmpty
                && (text.allSatisfy(\.isNumber) || (text.hasPrefix("0x") && text.dropFirst(2).allSatisfy(\.isHexDigit)))
        }
    }
}
