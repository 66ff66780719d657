import Dispatch
import Foundation
import Synchronization

/// The app's log hub: observers register for a set of levels and receive matching entries in
/// order, off the caller's thread, from any number of threads logging at once.
///
/// A level that no observer wants costs one atomic load and nothing else (the message closure
/// is not evaluated); `SwiftLogBridge` makes every swift-log `Logger` flow through here.
///
/// ```swift
/// let logs = LogService()
/// let token = logs.register(ConsoleLogPrinter(), levels: LogLevel.info.andAbove)
/// logs.log(.warning, "disk almost full", metadata: ["free": "3%"])
/// ```
public final class LogService: Sendable {
    /// Identifies a registration, for `unregister`.
    public struct Registration: Sendable, Hashable {
        let id: UInt64
    }

    /// One observer with its serial queue and the entries waiting for it. Entries are
    /// appended under a lock and drained in bursts: one dispatch per burst, not per entry.
    private final class Subscriber: Sendable {
        let observer: any LogObserver
        let levels: Set<LogLevel>
        let queue: DispatchQueue
        private let pending = Mutex<(entries: [LogEntry], scheduled: Bool)>(([], false))

        init(observer: any LogObserver, levels: Set<LogLevel>, label: String) {
            self.observer = observer
            self.levels = levels
            self.queue = DispatchQueue(label: label)
        }

        /// Queues an entry; schedules a drain if none is pending.
        func enqueue(_ entry: LogEntry) {
            let schedule = pending.withLock { state -> Bool in
                state.entries.append(entry)
                if state.scheduled { return false }
                state.scheduled = true
                return true
            }
            if schedule { queue.async { self.drain() } }
        }

        /// Queues an entry and delivers everything queued, this entry last, before returning.
        func deliverNow(_ entry: LogEntry) {
            pending.withLock { $0.entries.append(entry) }
            queue.sync { drain() }
        }

        /// On the queue: delivers until nothing is pending.
        func drain() {
            while true {
                let batch = pending.withLock { state -> [LogEntry] in
                    if state.entries.isEmpty {
                        state.scheduled = false
                        return []
                    }
                    defer { state.entries.removeAll(keepingCapacity: true) }
                    return state.entries
                }
                if batch.isEmpty { return }
                for entry in batch { observer.receive(entry) }
            }
        }
    }

    private let subscribers = Mutex<[UInt64: Subscriber]>([:])
    /// For each level (by `LogLevel.allCases` index), its subscribers in registration order;
    /// rebuilt on (un)registration so a log call only reads it.
    private let routes = Mutex<[[Subscriber]]>(Array(repeating: [], count: LogLevel.allCases.count))
    private let nextId = Atomic<UInt64>(0)
    private let enabledMask = Atomic<UInt8>(0)

    /// Creates an empty service.
    public init() {}

    /// Starts delivering entries of `levels` to `observer`.
    @discardableResult
    public func register(_ observer: any LogObserver, levels: Set<LogLevel>) -> Registration {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let subscriber = Subscriber(observer: observer, levels: levels, label: "chirp.log.observer.\(id)")
        subscribers.withLock { table in
            table[id] = subscriber
            rebuild(table)
        }
        return Registration(id: id)
    }

    /// Stops delivering to a registration's observer (entries already queued still arrive).
    public func unregister(_ registration: Registration) {
        subscribers.withLock { table in
            table[registration.id] = nil
            rebuild(table)
        }
    }

    /// Whether any observer wants this level.
    public func isEnabled(_ level: LogLevel) -> Bool {
        enabledMask.load(ordering: .relaxed) & level.bit != 0
    }

    /// The least severe level someone observes (`nil`: nobody observes anything).
    public var lowestObservedLevel: LogLevel? {
        let mask = enabledMask.load(ordering: .relaxed)
        return mask == 0 ? nil : LogLevel(rank: mask.trailingZeroBitCount)
    }

    /// Logs an entry; `message` is evaluated only if someone observes `level`.
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, metadata: [String: String]? = nil,
        source: String? = nil, timestamp: Date? = nil
    ) {
        guard isEnabled(level) else { return }
        log(
            LogEntry(
                level: level, message: message(), timestamp: timestamp ?? Date(), metadata: metadata, source: source))
    }

    /// Logs a prepared entry.
    public func log(_ entry: LogEntry) {
        guard isEnabled(entry.level) else { return }
        let targets = routes.withLock { $0[LogLevel.allCases.firstIndex(of: entry.level)!] }
        for subscriber in targets {
            if subscriber.observer.deliversSynchronously(entry.level) {
                // After everything queued before it, and before this call returns.
                subscriber.deliverNow(entry)
            } else {
                subscriber.enqueue(entry)
            }
        }
    }

    /// Waits until every entry logged so far has been delivered.
    public func flush() {
        let targets = subscribers.withLock { Array($0.values) }
        for subscriber in targets { subscriber.queue.sync { subscriber.drain() } }
    }

    private func rebuild(_ table: [UInt64: Subscriber]) {
        let ordered = table.keys.sorted().map { table[$0]! }
        routes.withLock { routes in
            routes = LogLevel.allCases.map { level in ordered.filter { $0.levels.contains(level) } }
        }
        let mask = table.values.reduce(UInt8(0)) { mask, subscriber in
            subscriber.levels.reduce(mask) { $0 | $1.bit }
        }
        enabledMask.store(mask, ordering: .relaxed)
    }
}
