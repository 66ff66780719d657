import Synchronization

/// How many connections each client address holds on this process, and the cap
/// (`ServerConfiguration.maxConnectionsPerAddress`; 0: no cap, nothing counted). Connections
/// belong to an instance, so on PostgreSQL scale-out each instance counts its own. An IPv6
/// client counts by its /64 (`ClientAddress.limitUnit`).
final class ConnectionLimiter: Sendable {
    let limit: Int
    private let counts = Mutex<[ClientAddress: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    var isEnabled: Bool { limit > 0 }

    /// Counts one more connection of `address`; false (and nothing counted) when it already
    /// holds `limit`.
    func acquire(_ address: ClientAddress) -> Bool {
        guard isEnabled else { return true }
        let address = address.limitUnit
        return counts.withLock { counts in
            let held = counts[address, default: 0]
            guard held < limit else { return false }
            counts[address] = held + 1
            return true
        }
    }

    /// Counts one connection of `address` fewer.
    func release(_ address: ClientAddress) {
        guard isEnabled else { return }
        let address = address.limitUnit
        counts.withLock { counts in
            guard let held = counts[address] else { return }
            counts[address] = held > 1 ? held - 1 : nil
        }
    }

    /// Connections `address` holds now.
    func count(_ address: ClientAddress) -> Int {
        counts.withLock { $0[address.limitUnit, default: 0] }
    }
}
