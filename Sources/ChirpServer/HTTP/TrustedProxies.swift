import HTTPTypes
import NIOHTTP1

/// The proxies whose `X-Forwarded-For` is believed (`chirp serve --trusted-proxy CIDR`).
///
/// A connection from a trusted proxy is attributed to the last address of `X-Forwarded-For`
/// (all its headers, in order) that is not itself a trusted proxy: each proxy appends the
/// address it received the request from, so hops to the right of that one were added by our
/// proxies and everything to the left of it was written by the client and cannot be believed.
/// A connection from anywhere else is its own peer address, whatever it sends.
public struct TrustedProxies: Sendable {
    public let ranges: [AddressRange]

    public init(_ ranges: [AddressRange]) {
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is one of the trusted proxies.
    public func trusts(_ address: ClientAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client a request came from: `peer` itself unless it is trusted, else the last
    /// untrusted hop of `forwardedFor` (the header values in order); when every hop is trusted
    /// the first one, and when the header is absent or unreadable the peer.
    public func client(peer: ClientAddress, forwardedFor: [String]) -> ClientAddress {
        guard !ranges.isEmpty, trusts(peer) else { return peer }
        var hops: [ClientAddress] = []
        for value in forwardedFor {
            for item in value.split(separator: ",") {
                guard let hop = ClientAddress(item.trimmingCharacters(in: " \t")) else { return peer }
                hops.append(hop)
            }
        }
        guard let first = hops.first else { return peer }
        return hops.last { !trusts($0) } ?? first
    }

    /// The client of a request with HTTPTypes fields.
    func client(peer: ClientAddress, fields: HTTPFields) -> ClientAddress {
        client(peer: peer, forwardedFor: fields[values: Self.forwardedFor])
    }

    /// The client of a request with NIO's HTTP/1 headers.
    func client(peer: ClientAddress, headers: HTTPHeaders) -> ClientAddress {
        client(peer: peer, forwardedFor: headers["x-forwarded-for"])
    }

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }
}
