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

    private final class Subscriber: Sendable {
        let observer: any LogObserver
        let levels: Set<LogLevel>
        let queue: DispatchQueue

        init(observer: any LogObserver, levels: Set<LogLevel>, label: String) {
            self.observer = observer
            self.levels = levels
            self.queue = DispatchQueue(label: label)
        }
    }

    private let subscribers = Mutex<[UInt64: Subscriber]>([:])
    private let nextId = Atomic<UInt64>(0)
    private let enabledMask = Atomic<UInt8>(0)

    public init() {}

    /// Starts delivering entries of `levels` to `observer`.
    @discardableResult
    public func register(_ observer: any LogObserver, levels: Set<LogLevel>) -> Registration {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let subscriber = Subscriber(observer: observer, levels: levels, label: "chirp.log.observer.\(id)")
        subscribers.withLock { table in
            table[id] = subscriber
            updateMask(table)
        }
        return Registration(id: id)
    }

    /// Stops delivering to a registration's observer (entries already queued still arrive).
    public func unregister(_ registration: Registration) {
        subscribers.withLock { table in
            table[registration.id] = nil
            updateMask(table)
        }
    }

    /// Whether any observer wants this level.
    public func isEnabled(_ level: LogLevel) -> Bool {
        enabledMask.load(ordering: .relaxed) & level.bit != 0
    }

    /// The least severe level someone observes (`nil`: nobody observes anything).
    public var lowestObservedLevel: LogLevel? {
        LogLevel.allCases.first(where: isEnabled)
    }

    /// Logs an entry; `message` is evaluated only if someone observes `level`.
    public func log(
        _ level: LogLevel, _ message: @autoclosure () -> String, metadata: [String: String]? = nil,
        source: String? = nil, timestamp: Date = Date()
    ) {
        guard isEnabled(level) else { return }
        log(LogEntry(level: level, message: message(), timestamp: timestamp, metadata: metadata, source: source))
    }

    /// Logs a prepared entry.
    public func log(_ entry: LogEntry) {
        guard isEnabled(entry.level) else { return }
        let targets = subscribers.withLock { table in
            table.keys.sorted().compactMap { table[$0] }.filter { $0.levels.contains(entry.level) }
        }
        for subscriber in targets {
            let observer = subscriber.observer
            if observer.deliversSynchronously(entry.level) {
                // After everything queued before it, and before this call returns.
                subscriber.queue.sync { observer.receive(entry) }
            } else {
                subscriber.queue.async { observer.receive(entry) }
            }
        }
    }

    /// Waits until every entry logged so far has been delivered.
    public func flush() {
        let queues = subscribers.withLock { $0.values.map(\.queue) }
        for queue in queues { queue.sync {} }
    }

    private func updateMask(_ table: [UInt64: Subscriber]) {
        let mask = table.values.reduce(UInt8(0)) { mask, subscriber in
            subscriber.levels.reduce(mask) { $0 | $1.bit }
        }
        enabledMask.store(mask, ordering: .relaxed)
    }
}
