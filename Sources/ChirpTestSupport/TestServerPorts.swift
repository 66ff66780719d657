import Foundation
import Synchronization

/// Ports for `ServerProcess` children: below the kernel's ephemeral range, so never the port
/// of a `--port 0` server or of an outgoing connection, and never the same twice in one test
/// process. A test may stop a server and start another on its port; meanwhile a port the
/// kernel had chosen could go to another test's server, and a client that should find the
/// server down would reach a stranger instead (it once got 401 for every queued send).
public enum TestServerPorts {
    private static let last = Mutex<Int?>(nil)

    /// The next port to try.
    public static func next() -> Int {
        let end = ephemeralRangeStart()
        let start = max(1024, end - 12_000)
        return last.withLock { last in
            // A random start, so test processes running side by side seldom meet.
            let port = last.map { $0 + 1 < end ? $0 + 1 : start } ?? Int.random(in: start..<end)
            last = port
            return port
        }
    }

    /// The first port of the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`),
    /// 32768 where that cannot be read.
    static func ephemeralRangeStart() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }.map { max($0, 2048) } ?? 32768
    }
}
