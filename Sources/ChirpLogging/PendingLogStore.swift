import Foundation

/// The reporter's disk: entries waiting for upload in `pending.jsonl` (one JSON line each,
/// numbered), and in `state.json` the next number, the count of entries dropped by the cap,
/// and the batch being uploaded (so a batch interrupted by a crash is re-sent with the same
/// id). Files are replaced atomically (write, fsync, rename). Not thread-safe: the reporter
/// serialises access.
// Unchecked: every access goes through RemoteLogReporter's lock.
final class PendingLogStore: @unchecked Sendable {
    struct Line: Codable {
        var seq: UInt64
        var entry: LogEntry
    }

    struct InFlight: Codable, Equatable {
        var batchId: String
        var upToSeq: UInt64
        var droppedReported: Int
    }

    struct State: Codable {
        var nextSeq: UInt64 = 1
        var dropped: Int = 0
        var inFlight: InFlight?
    }

    let directory: URL
    private(set) var lines: [Line] = []
    private(set) var state = State()
    private(set) var bytes = 0

    private var pendingURL: URL { directory.appendingPathComponent("pending.jsonl") }
    private var stateURL: URL { directory.appendingPathComponent("state.json") }

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let data = try? Data(contentsOf: stateURL), let saved = try? JSONDecoder().decode(State.self, from: data) {
            state = saved
        }
        if let data = try? Data(contentsOf: pendingURL) {
            // A line cut short by a crash does not parse and is skipped.
            for raw in data.split(separator: UInt8(ascii: "\n")) {
                if let line = try? JSONDecoder().decode(Line.self, from: Data(raw)) { lines.append(line) }
            }
        }
        state.nextSeq = max(state.nextSeq, (lines.last?.seq ?? 0) + 1)
        bytes = lines.reduce(0) { $0 + $1.entry.approximateBytes }
    }

    var count: Int { lines.count }

    /// Appends entries; with `durable`, they are on the disk (fsync) when this returns.
    func append(_ entries: [LogEntry], durable: Bool) throws {
        guard !entries.isEmpty else { return }
        var data = Data()
        var added: [Line] = []
        for entry in entries {
            let line = Line(seq: state.nextSeq, entry: entry)
            state.nextSeq += 1
            data.append(try JSONEncoder().encode(line))
            data.append(UInt8(ascii: "\n"))
            added.append(line)
        }
        if !FileManager.default.fileExists(atPath: pendingURL.path) {
            FileManager.default.createFile(atPath: pendingURL.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: pendingURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        if durable { try handle.synchronize() }
        lines += added
        bytes += added.reduce(0) { $0 + $1.entry.approximateBytes }
    }

    /// Drops the oldest entries not part of the batch in flight until `withinCap` holds;
    /// returns how many were dropped.
    func enforceCap(_ withinCap: (Int, Int) -> Bool) throws -> Int {
        var removed = 0
        let protected = state.inFlight?.upToSeq ?? 0
        while !withinCap(lines.count, bytes), let index = lines.firstIndex(where: { $0.seq > protected }) {
            bytes -= lines[index].entry.approximateBytes
            lines.remove(at: index)
            removed += 1
        }
        if removed > 0 {
            state.dropped += removed
            try rewrite()
        }
        return removed
    }

    /// The batch to upload next: the one in flight if any (same id, same entries), else a new
    /// one of at most `maxEntries` entries and about `maxBytes`, recorded before it is sent.
    func nextBatch(maxEntries: Int, maxBytes: Int) throws -> (LogBatch, InFlight)? {
        if let inFlight = state.inFlight {
            let entries = lines.filter { $0.seq <= inFlight.upToSeq }.map(\.entry)
            return (
                LogBatch(batchId: inFlight.batchId, entries: droppedNotice(inFlight.droppedReported) + entries),
                inFlight
            )
        }
        guard !lines.isEmpty || state.dropped > 0 else { return nil }
        let reserved = state.dropped > 0 ? 1 : 0
        var selected: [Line] = []
        var size = 0
        for line in lines {
            if selected.count + reserved >= maxEntries
                || (size + line.entry.approximateBytes > maxBytes && !selected.isEmpty)
            {
                break
            }
            selected.append(line)
            size += line.entry.approximateBytes
        }
        let inFlight = InFlight(
            batchId: UUID().uuidString, upToSeq: selected.last?.seq ?? 0, droppedReported: state.dropped)
        state.inFlight = inFlight
        try saveState()
        return (
            LogBatch(
                batchId: inFlight.batchId, entries: droppedNotice(inFlight.droppedReported) + selected.map(\.entry)),
            inFlight
        )
    }

    /// The receiver acknowledged the batch: purge its entries.
    func acknowledge(_ inFlight: InFlight) throws {
        guard state.inFlight == inFlight else { return }
        let before = lines.count
        lines.removeAll { $0.seq <= inFlight.upToSeq }
        bytes = lines.reduce(0) { $0 + $1.entry.approximateBytes }
        state.dropped -= inFlight.droppedReported
        state.inFlight = nil
        if lines.count != before { try rewrite() }
        try saveState()
    }

    private func droppedNotice(_ count: Int) -> [LogEntry] {
        guard count > 0 else { return [] }
        return [
            LogEntry(
                level: .warning, message: "\(count) log entries were dropped on this device: the disk cap was reached",
                metadata: ["dropped": String(count)], source: "ChirpLogging")
        ]
    }

    private func rewrite() throws {
        var data = Data()
        for line in lines {
            data.append(try JSONEncoder().encode(line))
            data.append(UInt8(ascii: "\n"))
        }
        try Self.replace(pendingURL, with: data)
        try saveState()
    }

    private func saveState() throws {
        try Self.replace(stateURL, with: try JSONEncoder().encode(state))
    }

    /// Writes a temporary file, syncs it and renames it over `url`.
    private static func replace(_ url: URL, with data: Data) throws {
        let temporary = url.appendingPathExtension("tmp")
        FileManager.default.createFile(atPath: temporary.path, contents: nil)
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        if rename(temporary.path, url.path) != 0 {
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
