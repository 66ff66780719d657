import Foundation
import GRDB

/// Copies the write-ahead log back into the SQLite database file from a connection of its
/// own, a few times a second, so that the writer never does it inside a commit.
///
/// With SQLite's automatic checkpoint, the commit that crosses the threshold copies every
/// page written since the last one and fsyncs the database file before it returns: at
/// thousands of sends a second that is a regular stall of the writer, paid by the requests
/// in that batch. A passive checkpoint on another connection runs beside the writer and never
/// blocks it. The writer keeps a high automatic threshold (`backstopPages`) only as a bound
/// on the log's size should this connection ever fall behind.
final class WALCheckpointer: Sendable {
    /// The writer's own automatic checkpoint threshold, in pages.
    static let backstopPages = 20_000
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
                self.checkpoint()
            }
        }
    }

    /// One passive checkpoint: copies what it can without waiting for the writer or readers.
    func checkpoint() {
        try? connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
    }
}
