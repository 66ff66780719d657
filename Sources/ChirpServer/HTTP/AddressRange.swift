/// A CIDR range of IP addresses (`10.0.0.0/8`, `2001:db8::/32`, or one address), as given to
/// `chirp serve --trusted-proxy`.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    let base: ClientAddress
    /// Prefix length over the 128 bits (an IPv4 prefix is counted after the 96 mapped bits).
    let prefix: Int
    public let description: String

    /// Parses `ADDRESS/PREFIX` or a single `ADDRESS`; nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = ClientAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var length = width
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...width).contains(value) else { return nil }
            length = value
        }
        prefix = length + (address.isIPv4 ? 96 : 0)
        base = Self.masked(address, prefix: prefix)
        description = text
    }

    /// Whether `address` is in the range.
    public func contains(_ address: ClientAddress) -> Bool {
        Self.masked(address, prefix: prefix) == base
    }

    private static func masked(_ address: ClientAddress, prefix: Int) -> ClientAddress {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits)) }
        return ClientAddress(high: address.high & mask(prefix), low: address.low & mask(prefix - 64))
    }
}
