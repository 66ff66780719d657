import Foundation

/// How many accepted-by-the-kernel connections may wait for the server to take them. A restart
/// or a flood of new connections (a load test, everyone returning at once) fills Hummingbird's
/// default of 256 in a moment, and the kernel then drops handshakes: clients wait for
/// retransmits or give up. Chirp asks for the system's ceiling, `net.core.somaxconn`, so an
/// operator who raises that raises Chirp's backlog with it.
public enum ListenBacklog {
    /// `net.core.somaxconn` (4,096 where it cannot be read: the default of recent kernels).
    public static var systemMaximum: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)) ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)).map { max($0, 128) } ?? 4096
    }
}
