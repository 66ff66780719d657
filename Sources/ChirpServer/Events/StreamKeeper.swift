import Synchronization

/// One timer for every open event stream, instead of one per connection: every `period` it
/// calls each stream's keep-alive check (the stall check), and every `pingEvery`-th time asks
/// it to ping its client (and to drop it if the last ping went unanswered).
final class StreamKeeper: Sendable {
    typealias Check = @Sendable (_ ping: Bool) -> Void

    private let streams = Mutex<[ObjectIdentifier: Check]>([:])
    private let started = Mutex(false)
    let period: Duration
    let pingEvery: Int

    /// By default: checks every 5 s and pings every 20 s.
    init(period: Duration = .seconds(5), pingEvery: Int = 4) {
        self.period = period
        self.pingEvery = max(1, pingEvery)
    }

    /// Pings every `pingInterval`, checking for stalls in between at most 5 s apart (the
    /// interval split evenly: 12 s gives checks every 4 s and a ping every third).
    convenience init(pingInterval: Duration) {
        let rounds = max(1, Int((pingInterval / .seconds(5)).rounded(.up)))
        self.init(period: pingInterval / rounds, pingEvery: rounds)
    }

    /// Checks the stream `id` with `check` until `remove(id)`.
    func add(_ id: ObjectIdentifier, check: @escaping Check) {
        streams.withLock { $0[id] = check }
        startIfNeeded()
    }

    func remove(_ id: ObjectIdentifier) {
        _ = streams.withLock { $0.removeValue(forKey: id) }
    }

    /// Number of streams kept (for tests).
    var count: Int { streams.withLock { $0.count } }

    /// Runs every stream's check once.
    func checkAll(ping: Bool) {
        let checks = streams.withLock { Array($0.values) }
        for check in checks { check(ping) }
    }

    private func startIfNeeded() {
        let first = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let period = self.period
        let pingEvery = self.pingEvery
        Task { [weak self] in
            var round = 0
            while true {
                try? await Task.sleep(for: period)
                guard let self else { return }
                round += 1
                self.checkAll(ping: round % pingEvery == 0)
            }
        }
    }
}
