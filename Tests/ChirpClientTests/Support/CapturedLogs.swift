import Logging
import Synchronization

/// A swift-log handler that keeps every entry, for tests of what the client logs.
final class CapturedLogs: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        /// The message and every metadata value, for "does it contain …" checks.
        var allText: String { ([message] + metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
    }

    private let entries = Mutex<[Entry]>([])

    /// Every entry so far.
    var all: [Entry] { entries.withLock { $0 } }

    /// A logger writing here.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { _ in Handler(logs: self) }
    }

    fileprivate func add(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            logs.add(Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
