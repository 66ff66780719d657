import Logging
import Synchronization

/// Indexes stored messages, direct and group alike, for search after their sends, so that no
/// send pays for the index in its transaction (`SQLiteMessageSearch` says how a search still
/// finds them at once).
///
/// Indexed in each send's group commit, FTS5 wrote one new segment per commit and merged
/// them, so the index cost a send more the fewer sends shared a commit: at 100 sends/s under
/// callgrind (`scripts/count-send-instructions PATH 100 20`, commits of a few sends) a send
/// took 744,000 instructions, 657,000 with this indexer; at full load 623,000 and 618,000.
/// Here a chunk of up to `chunk` messages is one write job, one segment. Every `period` the
/// indexer takes chunks until it has read every stored message; a chunk holds the writer for
/// about half the 1.5 ms a chunk of 128 (the first version's size) held it, short beside a
/// commit's fsync.
final class SQLiteSearchIndexer: Sendable {
    /// Messages indexed in one write job at most.
    static let chunk = 64
    private let writer: WriteCoalescer
    private let logger: Logger
    /// Whether a message may have been stored since the last round: an idle server's rounds
    /// then cost nothing, not a write transaction each. True at first, for messages stored
    /// before a restart.
    private let pending = Atomic<Bool>(true)

    /// Starts indexing every `period`; with no period it indexes only when asked (`catchUp`).
    init(writer: WriteCoalescer, period: Duration?, logger: Logger) {
        self.writer = writer
        self.logger = logger
        guard let period else { return }
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: period)
                guard let self else { return }
                guard self.pending.exchange(false, ordering: .acquiringAndReleasing) else { continue }
                do {
                    try await self.catchUp()
                } catch {
                    // Kept for the next round: search reads the unindexed messages meanwhile.
                    self.pending.store(true, ordering: .releasing)
                    self.logger.warning("search indexing failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// A message was stored: the next round indexes it.
    func noteStored() {
        pending.store(true, ordering: .releasing)
    }

    /// Indexes every message stored above the mark, a chunk per write job, and merges what
    /// that made mergeable, a step per write job (`SQLiteMessageSearch.mergeStep`): sends queue
    /// behind one short job at a time. Returns how many messages were read.
    @discardableResult
    func catchUp() async throws -> Int {
        var read = 0
        while true {
            let chunk = try await writer.write { db in try SQLiteMessageSearch.indexNext(db, limit: Self.chunk) }
            read += chunk
            while try await writer.write({ db in try SQLiteMessageSearch.mergeStep(db) }) {}
            if chunk < Self.chunk { return read }
        }
    }
}
