import Foundation
import GRDB

/// Copies the write-ahead log back into the SQLite database file from a connection of its
/// own, a few times a second, so that the writer never does it inside a commit.
///
/// With SQLite's automatic checkpoint, the commit that crosses the threshold copies every
/// page written since the last one and fsyncs the database file before it returns: at
/// thousands of sends a second that is a regular stall of the writer, paid by the requests
/// in that batch. A passive checkpoint on another connection runs beside the writer and never
/// blocks it. The writer keeps a high automatic threshold (`backstopBytes` of log) only as a
/// bound on the log's size should this connection ever fall behind.
final class WALCheckpointer: Sendable {
    /// The log size at which the writer checkpoints by itself.
    static let backstopBytes = 80 << 20
    private let connection: DatabaseQueue
    private let period: Duration

    /// Opens a connection to the database at `path` (already in WAL mode) and starts checkpointing.
    init(path: String, period: Duration = .milliseconds(500)) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "chirp.wal-checkpointer"
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.period = period
        Task.detached { [weak self] in
            while let interval = self?.period {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                _ = try? self.checkpoint()
            }
        }
    }

    /// One passive checkpoint: copies what it can without waiting for the writer or readers.
    /// Returns the frames in the log and how many of them are now copied into the database.
    @discardableResult
    func checkpoint() throws -> (logFrames: Int, copied: Int) {
        try connection.writeWithoutTransaction { db in
            let result = try db.checkpoint(.passive)
            return (result.walFrameCount, result.checkpointedFrameCount)
        }
    }
}
