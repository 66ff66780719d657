import Foundation
import Synchronization

/// Collects error and fatal entries and gets them to the server without losing what matters:
/// entries wait in memory, go to disk at the strategy's threshold (a fatal entry, and everything
/// before it, is on disk before the log call returns), are uploaded in batches once the disk
/// holds the waterline, and are purged only after the server acknowledged the batch. A failed
/// upload is retried with backoff under the same batch id, so nothing is stored twice. Entries
/// left on disk by an earlier run are uploaded by `start()`.
///
/// ```swift
/// let reporter = try RemoteLogReporter(directory: logsDirectory, uploader: myUploader)
/// logs.register(reporter, levels: [.error, .fatal])
/// reporter.start()
/// ```
public final class RemoteLogReporter: LogObserver {
    /// What the reporter holds and has done.
    public struct Statistics: Sendable, Hashable {
        /// Entries waiting in memory.
        public var inMemory: Int
        /// Entries waiting on disk.
        public var onDisk: Int
        /// Entries dropped by the disk cap and not yet reported.
        public var droppedByCap: Int
        /// Batches acknowledged since start.
        public var uploadedBatches: Int
        /// Upload attempts that failed since start.
        public var failedUploads: Int
    }

    private struct State {
        var memory: [LogEntry] = []
        var memoryBytes = 0
        var uploading = false
        var uploadScheduled = false
        var stopped = false
        var uploadedBatches = 0
        var failedUploads = 0
    }

    private let store: PendingLogStore
    private let storeLock = NSLock()
    private let state = Mutex(State())
    private let strategy: any RemoteLogPersistenceStrategy
    private let uploader: any LogUploader
    private let maxBatchEntries: Int
    private let maxBatchBytes: Int
    private let retryBase: Duration
    private let retryMax: Duration
    private let synchronousLevels: Set<LogLevel>
    private let uploadDelay: Duration?
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - directory: where pending entries live; one reporter per directory.
    ///   - maxBatchEntries, maxBatchBytes: the size of one upload (the Chirp server takes at
    ///     most 500 entries and 64 KiB).
    ///   - retryBase, retryMax: backoff between failed uploads, doubling up to the maximum.
    ///   - synchronousLevels: levels written to disk before the log call returns (fatal ones
    ///     are also synced); an app that must not lose an error to a kill adds `.error`.
    ///   - uploadDelay: when set, entries that reached the disk are uploaded at most this long
    ///     after, as one batch, even below the waterline.
    ///   - sleep: how waits are spent (inject in tests).
    public init(
        directory: URL, uploader: any LogUploader,
        strategy: any RemoteLogPersistenceStrategy = CountPersistenceStrategy(),
        maxBatchEntries: Int = 500, maxBatchBytes: Int = 48 * 1024,
        retryBase: Duration = .seconds(1), retryMax: Duration = .seconds(300),
        synchronousLevels: Set<LogLevel> = [.fatal], uploadDelay: Duration? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) throws {
        store = try PendingLogStore(directory: directory)
        self.uploader = uploader
        self.strategy = strategy
        self.maxBatchEntries = max(2, maxBatchEntries)
        self.maxBatchBytes = maxBatchBytes
        self.retryBase = retryBase
        self.retryMax = retryMax
        self.synchronousLevels = synchronousLevels.union([.fatal])
        self.uploadDelay = uploadDelay
        self.sleep = sleep
    }

    /// Uploads, in the background, whatever an earlier run left on disk.
    public func start() {
        let pending = storeLock.withLock { store.count > 0 || store.state.dropped > 0 || store.state.inFlight != nil }
        if pending { triggerUpload(drainAll: true) }
    }

    /// Stops background uploads (entries stay on disk for the next run).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Whether entries of this level are handled before the log call returns.
    public func deliversSynchronously(_ level: LogLevel) -> Bool { synchronousLevels.contains(level) }

    /// Handles one entry (see `LogObserver`).
    public func receive(_ entry: LogEntry) {
        guard entry.level >= .error else { return }
        let (toDisk, durable) = state.withLock { state -> ([LogEntry], Bool) in
            state.memory.append(entry)
            state.memoryBytes += entry.approximateBytes
            let flush =
                synchronousLevels.contains(entry.level)
                || strategy.shouldMoveToDisk(memoryCount: state.memory.count, memoryBytes: state.memoryBytes)
            guard flush else { return ([], false) }
            defer {
                state.memory = []
                state.memoryBytes = 0
            }
            return (state.memory, entry.level == .fatal)
        }
        guard !toDisk.isEmpty else { return }
        if persist(toDisk, durable: durable) { triggerUpload() } else { scheduleUpload() }
    }

    /// Moves what is in memory to disk now (for example when the app goes to the background).
    public func flushToDisk() {
        let entries = state.withLock { state -> [LogEntry] in
            defer {
                state.memory = []
                state.memoryBytes = 0
            }
            return state.memory
        }
        _ = persist(entries, durable: true)
    }

    /// Uploads everything on disk now, batch after batch, retrying failures with backoff until
    /// all is acknowledged, the task is cancelled, or `maxConsecutiveFailures` attempts in a
    /// row failed (then `RemoteLogUploadError.gaveUp` is thrown and the entries stay on disk).
    public func uploadNow(maxConsecutiveFailures: Int? = nil) async throws {
        flushToDisk()
        try await uploadBatches(maxConsecutiveFailures: maxConsecutiveFailures) {
            try self.store.nextBatch(maxEntries: self.maxBatchEntries, maxBytes: self.maxBatchBytes)
        }
    }

    /// Current figures.
    public var statistics: Statistics {
        let (memory, batches, failures) = state.withLock { ($0.memory.count, $0.uploadedBatches, $0.failedUploads) }
        let (disk, dropped) = storeLock.withLock { (store.count, store.state.dropped) }
        return Statistics(
            inMemory: memory, onDisk: disk, droppedByCap: dropped, uploadedBatches: batches, failedUploads: failures)
    }

    /// Waits until no background upload is running.
    public func waitForUploads() async {
        while state.withLock({ $0.uploading }) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    // MARK: internals

    /// Appends to disk and enforces the cap; returns whether the waterline is reached.
    private func persist(_ entries: [LogEntry], durable: Bool) -> Bool {
        guard !entries.isEmpty else { return false }
        return storeLock.withLock {
            do {
                try store.append(entries, durable: durable)
                _ = try store.enforceCap { !strategy.exceedsDiskCap(pendingCount: $0, pendingBytes: $1) }
            } catch {
                // The disk refused; nothing better to do than keep going (the entries are lost).
                return false
            }
            return strategy.shouldUpload(pendingCount: store.count, pendingBytes: store.bytes)
        }
    }

    private func triggerUpload(drainAll: Bool = false) {
        let begin = state.withLock { state -> Bool in
            guard !state.uploading, !state.stopped else { return false }
            state.uploading = true
            return true
        }
        guard begin else { return }
        Task {
            defer { state.withLock { $0.uploading = false } }
            try? await uploadWhileNeeded(drainAll: drainAll)
        }
    }

    /// With an `uploadDelay`: one upload of everything on disk after the delay, so entries
    /// logged within it travel together.
    private func scheduleUpload() {
        guard let uploadDelay else { return }
        let begin = state.withLock { state -> Bool in
            guard !state.uploadScheduled, !state.stopped else { return false }
            state.uploadScheduled = true
            return true
        }
        guard begin else { return }
        Task {
            try? await sleep(uploadDelay)
            await waitForUploads()
            state.withLock { $0.uploadScheduled = false }
            triggerUpload(drainAll: true)
        }
    }

    /// Background loop: upload while the disk holds the waterline (or leftovers of a crash);
    /// with `drainAll`, until the disk is empty.
    private func uploadWhileNeeded(drainAll: Bool) async throws {
        try await uploadBatches(maxConsecutiveFailures: nil) {
            guard !self.state.withLock({ $0.stopped }) else { return nil }
            let due =
                self.store.state.inFlight != nil || self.store.state.dropped > 0 || (drainAll && self.store.count > 0)
                || self.strategy.shouldUpload(pendingCount: self.store.count, pendingBytes: self.store.bytes)
            return due ? try self.store.nextBatch(maxEntries: self.maxBatchEntries, maxBytes: self.maxBatchBytes) : nil
        }
    }

    /// The one upload loop: take the next batch (under the store lock), upload it, purge it once
    /// acknowledged; after a failure, back off and retry the same batch. Stops when `next`
    /// returns nil, on cancellation, or after `maxConsecutiveFailures` failures in a row.
    private func uploadBatches(
        maxConsecutiveFailures: Int?, next: () throws -> (LogBatch, PendingLogStore.InFlight)?
    ) async throws {
        var failures = 0
        while let (batch, inFlight) = try storeLock.withLock(next) {
            do {
                try await uploader.upload(batch)
                try storeLock.withLock { try store.acknowledge(inFlight) }
                state.withLock { $0.uploadedBatches += 1 }
                failures = 0
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                state.withLock { $0.failedUploads += 1 }
                failures += 1
                if let maxConsecutiveFailures, failures >= maxConsecutiveFailures {
                    throw RemoteLogUploadError.gaveUp(attempts: failures, lastError: String(describing: error))
                }
                try await sleep(backoff(failures - 1))
            }
            try Task.checkCancellation()
        }
    }

    private func backoff(_ failures: Int) -> Duration {
        min(retryBase * Int(1 << min(failures, 20)), retryMax)
    }
}

/// Why `RemoteLogReporter.uploadNow` stopped before everything was acknowledged.
public enum RemoteLogUploadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This many attempts in a row failed; the entries are still on disk.
    case gaveUp(attempts: Int, lastError: String)

    public var description: String {
        switch self {
        case .gaveUp(let attempts, let lastError):
            "upload failed \(attempts) times in a row (\(lastError)); the entries stay on disk for the next try"
        }
    }
}
