import ChirpLogging
import ChirpModules
import ChirpNetworking
import Foundation
import Logging
import Synchronization

/// The client's logging, assembled: a `LogService` that every swift-log `Logger` flows into, an
/// optional console printer, and a `RemoteLogReporter` that keeps error and fatal entries
/// under `directory` and uploads them to the server's `POST /v1/logs`.
///
/// In the product (`ClientDiagnostics.product`), an error is written to disk before the log
/// call returns (so a client killed right after still reports it on its next run), entries
/// leave in batches at most `uploadDelay` after they were logged, crashes caught by a signal
/// handler become fatal entries of the next run, and what an earlier run left is uploaded at
/// start.
public final class ClientDiagnostics: Sendable {
    /// The log hub every Logger flows into.
    public let logs: LogService
    /// Keeps and uploads error and fatal entries.
    public let reporter: RemoteLogReporter
    /// Where this process's unsent entries wait.
    public let directory: URL
    /// This process's share of a log directory other processes may use at once.
    public let lease: LogDirectoryLease?
    private let uploader: any LogUploader
    /// Uploads of what other processes left, for `finish` to wait on.
    private let leftoverUploads = Mutex<[Task<Void, Never>]>([])

    /// - Parameters:
    ///   - directory: where unsent entries wait (for example `~/.chirp/logs`).
    ///   - uploader: where batches go.
    ///   - consoleLevel: the least severe level printed to standard error (nil: print nothing,
    ///     as in the terminal app, whose screen a printed line would break).
    ///   - synchronousLevels: levels on disk before the log call returns.
    ///   - uploadDelay: the longest an entry on disk waits for its batch to leave.
    public init(
        directory: URL, uploader: any LogUploader,
        strategy: any RemoteLogPersistenceStrategy = CountPersistenceStrategy(),
        consoleLevel: LogLevel? = .warning, synchronousLevels: Set<LogLevel> = [.fatal], uploadDelay: Duration? = nil,
        lease: LogDirectoryLease? = nil
    ) throws {
        self.directory = lease?.directory ?? directory
        self.lease = lease
        self.uploader = uploader
        let directory = self.directory
        logs = LogService()
        reporter = try RemoteLogReporter(
            directory: directory, uploader: uploader, strategy: strategy, synchronousLevels: synchronousLevels,
            uploadDelay: uploadDelay)
        logs.register(reporter, levels: [.error, .fatal])
        if let consoleLevel {
            logs.register(ConsoleLogPrinter(), levels: consoleLevel.andAbove)
        }
    }

    /// Diagnostics uploading as the user whose token `api` carries (`chirp logs`).
    public convenience init(
        directory: URL, api: ChirpAPIClient, strategy: any RemoteLogPersistenceStrategy = CountPersistenceStrategy(),
        consoleLevel: LogLevel? = .warning
    ) throws {
        try self.init(
            directory: directory, uploader: ChirpLogUploader(api: api), strategy: strategy, consoleLevel: consoleLevel)
    }

    /// The product's diagnostics for the client directory `context`: entries in
    /// `context.root/logs` (a directory of its own while another client process holds that one),
    /// uploaded to `server` as whoever is logged in at the time; every error on disk before the
    /// log call returns; batches leave within `uploadDelay`.
    public static func product(
        context: AppContext, server: Server, consoleLevel: LogLevel?, uploadDelay: Duration = .seconds(5)
    ) throws -> ClientDiagnostics {
        let root = context.root.appendingPathComponent("logs")
        return try ClientDiagnostics(
            directory: root, uploader: ChirpLogUploader(server: server) { context.currentUser?.token() },
            consoleLevel: consoleLevel, synchronousLevels: [.error, .fatal], uploadDelay: uploadDelay,
            lease: try LogDirectoryLease(root: root))
    }

    /// Routes swift-log through `logs` for the whole process (call once per process), records
    /// crashes with `catchCrashes`, takes in the crash records of earlier runs, and with
    /// `uploadLeftovers` starts uploading what earlier runs left (the client's start-up does
    /// that in its `log-reporter` step instead, once the session is known).
    public func start(bootstrapSwiftLog: Bool = true, catchCrashes: Bool = false, uploadLeftovers: Bool = true) {
        if bootstrapSwiftLog {
            let service = logs
            LoggingSystem.bootstrap { label in SwiftLogBridge(label: label, service: service) }
        }
        // Straight to the reporter: an earlier run's crash is for the server, not this console.
        let crashes = lease?.root ?? directory
        if lease?.isPrimary ?? true {
            for crash in CrashSignalRecorder.collect(in: crashes) { reporter.receive(crash) }
        }
        if catchCrashes { try? CrashSignalRecorder.install(in: crashes, source: "chirp.crash") }
        if uploadLeftovers { startUploads() }
    }

    /// Uploads what waits on disk, in the background (when a session appears, for example),
    /// and what client processes that ran beside this one left in their directories.
    public func startUploads() {
        reporter.start()
        guard let lease else { return }
        let uploader = self.uploader
        for (directory, release) in lease.abandoned() {
            let task = Task {
                var empty = false
                if let leftover = try? RemoteLogReporter(directory: directory, uploader: uploader) {
                    try? await leftover.uploadNow(maxConsecutiveFailures: 3)
                    empty = leftover.statistics.onDisk == 0 && leftover.statistics.droppedByCap == 0
                }
                release(empty)
            }
            leftoverUploads.withLock { $0.append(task) }
        }
    }

    /// For an orderly exit: delivers what is queued, tries for at most `timeout` to upload
    /// what is on disk (what does not leave stays for the next run) and removes the crash
    /// handlers.
    public func finish(timeout: Duration = .seconds(2)) async {
        logs.flush()
        reporter.flushToDisk()
        let reporter = self.reporter
        let done = DoneFlag()
        let leftovers = leftoverUploads.withLock { $0 }
        let upload = Task {
            try? await reporter.uploadNow(maxConsecutiveFailures: 1)
            for leftover in leftovers { await leftover.value }
            done.set()
        }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !done.isSet {
            try? await Task.sleep(for: .milliseconds(10))
        }
        upload.cancel()
        CrashSignalRecorder.uninstall()
        lease?.finish(isEmpty: reporter.statistics.onDisk == 0)
    }
}

/// Set once an upload attempt ended.
private final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
