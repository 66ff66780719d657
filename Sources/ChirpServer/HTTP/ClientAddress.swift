import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IP address of a client: the connection's peer, or the address a trusted proxy forwarded
/// (`ServerConfiguration.trustedProxies`). IPv4 addresses are held as IPv4-mapped IPv6
/// (`::ffff:a.b.c.d`), so one value type, hashable without allocating, covers both; it is what
/// the per-address limits count.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    /// The 128 bits, most significant first.
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An IPv4 address, given in host byte order.
    init(ipv4: UInt32) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(ipv4))
    }

    /// The IP address of a socket address (nil for a Unix socket).
    init?(_ socketAddress: SocketAddress) {
        switch socketAddress {
        case .v4(let address):
            self.init(ipv4: UInt32(bigEndian: address.address.sin_addr.s_addr))
        case .v6(let address):
            var bytes = address.address.sin6_addr
            self = withUnsafeBytes(of: &bytes) { Self(bytes: $0) }
        default:
            return nil
        }
    }

    /// Parses `192.0.2.1` or `2001:db8::1` (an IPv6 address may be in brackets).
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self = withUnsafeBytes(of: &v6) { Self(bytes: $0) }
    }

    private init(bytes: UnsafeRawBufferPointer) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self.init(high: high, low: low)
    }

    /// Whether this is an IPv4 address (held IPv4-mapped).
    var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The unit the per-address limits count: an IPv4 address itself, and for IPv6 its /64
    /// (the size of one subscriber's network: a client holds a whole /64 and may pick any
    /// address in it, so counting addresses would let it multiply every limit).
    var limitUnit: ClientAddress { isIPv4 ? self : ClientAddress(high: high, low: 0) }

    /// `limitUnit` as a rate-limit key: `192.0.2.1`, or `2001:db8:1:2::/64`.
    var limitKey: String { isIPv4 ? description : limitUnit.description + "/64" }

    public var description: String {
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { bytes in
            for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index)) }
            for index in 0..<8 { bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index)) }
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(cString: buffer)
    }
}
