import ChirpLogging
import Foundation
import Synchronization

/// Collects what it receives.
final class CollectingObserver: LogObserver {
    private let entries = Mutex<[LogEntry]>([])
    private let synchronousLevels: Set<LogLevel>
    private let offThread = Mutex(true)

    init(synchronous: Set<LogLevel> = []) { synchronousLevels = synchronous }

    var received: [LogEntry] { entries.withLock { $0 } }
    /// False if any asynchronous entry arrived on a thread marked as the caller's.
    var alwaysOffCallerThread: Bool { offThread.withLock { $0 } }

    func receive(_ entry: LogEntry) {
        if Thread.current.threadDictionary["caller"] != nil, !synchronousLevels.contains(entry.level) {
            offThread.withLock { $0 = false }
        }
        entries.withLock { $0.append(entry) }
    }

    func deliversSynchronously(_ level: LogLevel) -> Bool { synchronousLevels.contains(level) }
}

/// A log collector: stores each batch id once (as the Chirp server does), and can fail on
/// purpose, before or after storing.
final class RecordingUploader: LogUploader {
    enum Failure { case before, afterStoring }
    private struct State {
        var failures: [Failure] = []
        var stored: [String: [LogEntry]] = [:]
        var order: [String] = []
        var attempts: [String] = []
    }
    private let state = Mutex(State())

    init(failures: [Failure] = []) { state.withLock { $0.failures = failures } }

    func upload(_ batch: LogBatch) async throws {
        let failure = state.withLock { state -> Failure? in
            state.attempts.append(batch.batchId)
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if failure == .before { throw URLError(.notConnectedToInternet) }
        state.withLock { state in
            if state.stored[batch.batchId] == nil {
                state.stored[batch.batchId] = batch.entries
                state.order.append(batch.batchId)
            }
        }
        if failure == .afterStoring { throw URLError(.networkConnectionLost) }
    }

    /// Every stored entry, in upload order.
    var storedEntries: [LogEntry] { state.withLock { s in s.order.flatMap { s.stored[$0]! } } }
    var attempts: [String] { state.withLock { $0.attempts } }
    var batches: Int { state.withLock { $0.order.count } }
}

final class SleepLog: Sendable {
    private let waits = Mutex<[Duration]>([])
    var recorded: [Duration] { waits.withLock { $0 } }
    var sleep: @Sendable (Duration) async throws -> Void { { d in self.waits.withLock { $0.append(d) } } }
}

func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("chirp-logs-\(UUID().uuidString)")
}

func error(_ text: String) -> LogEntry { LogEntry(level: .error, message: text) }
