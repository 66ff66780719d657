import ChirpModels
import Foundation
import Logging
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Users' data exports (issue 39). `prepare` starts writing a user's archive in the background
/// (`DataExportArchiver`) unless one is being written; `download` answers with the finished
/// archive, or with the status while it is being written. One archive per user is kept, in
/// `directory`: `<userId>.tar` once whole, `<userId>.<job>.partial` while written (renamed
/// over the previous archive when done, so a new export replaces the old one), with its
/// spool files in `<userId>.<job>.work/`. A finished archive goes after `retention`
/// (`sweep`), and at once when the account is deleted (`discard`).
///
/// The state is the files: another instance sharing the directory answers for an archive this
/// one wrote, and takes a partial file changed within `staleAfter` as an export in progress.
actor DataExportService {
    let archiver: DataExportArchiver
    let directory: URL
    let retention: Duration
    /// `limits.exports`: how many exports one user may start per window.
    let limits: RateLimits
    let now: @Sendable () -> Timestamp
    private var running: [Int64: Task<Void, Never>] = [:]

    /// A partial archive unchanged for this long was abandoned (its instance stopped).
    static let staleAfter: TimeInterval = 10 * 60

    init(
        archiver: DataExportArchiver, directory: URL, retention: Duration, limits: RateLimits = .off,
        now: @escaping @Sendable () -> Timestamp
    ) {
        self.archiver = archiver
        self.directory = directory
        self.retention = retention
        self.limits = limits
        self.now = now
    }

    /// What `GET /v1/me/export` answers: the archive, or the status while it is written.
    enum Download: Sendable {
        case ready(path: String, size: Int64)
        case pending(DataExportStatus)
    }

    /// Starts an export of `viewer`'s data unless one is being written; the status. Starting
    /// one counts against `limits.exports` (429 past it); asking while one is written does not.
    func prepare(_ viewer: Viewer) async throws -> DataExportStatus {
        if try await !isPending(viewer.id) {
            try await limits.take(
                limits.exports, key: String(viewer.id), refusal: "You have asked for your data too many times")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let job = UUID().uuidString
            let (archiver, directory, now) = (self.archiver, self.directory, self.now)
            running[viewer.id] = Task {
                await Self.run(archiver, viewer, job: job, in: directory, at: now())
                self.finished(viewer.id)
            }
        }
        return DataExportStatus(status: DataExportStatus.pending)
    }

    /// The finished archive, or the status while one is written; 404 `export_not_found` when
    /// there is neither.
    func download(_ viewer: Viewer) async throws -> Download {
        if try await isPending(viewer.id) { return .pending(DataExportStatus(status: DataExportStatus.pending)) }
        let path = archivePath(viewer.id)
        guard let (size, modified) = try await Self.sizeAndTime(path) else { throw Self.notFound }
        guard !isExpired(modified) else {
            try? FileManager.default.removeItem(atPath: path)
            throw Self.notFound
        }
        return .ready(path: path, size: size)
    }

    /// Stops an export being written and removes every file of `userId`'s (account deleted).
    func discard(userId: Int64) async {
        if let task = running.removeValue(forKey: userId) {
            task.cancel()
            await task.value
        }
        let prefix = "\(userId)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Removes archives past their retention and partial files abandoned; returns how many.
    func sweep() async -> Int {
        var removed = 0
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        let entries =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        for url in entries {
            let name = url.lastPathComponent
            guard let owner = name.split(separator: ".").first.flatMap({ Int64($0) }), running[owner] == nil,
                let modified = try? url.resourceValues(forKeys: Set(keys)).contentModificationDate
            else { continue }
            let gone =
                name.hasSuffix(".tar") ? isExpired(modified) : Date().timeIntervalSince(modified) > Self.staleAfter
            if gone, (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    private func finished(_ userId: Int64) { running[userId] = nil }

    /// Whether an export of `userId` is being written, here or (a fresh partial file) by
    /// another instance.
    private func isPending(_ userId: Int64) async throws -> Bool {
        if running[userId] != nil { return true }
        let prefix = "\(userId)."
        let directory = self.directory
        return try await NIOThreadPool.singleton.runIfActive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.contains { name in
                guard name.hasPrefix(prefix), name.hasSuffix(".partial"),
                    let modified = try? FileManager.default.attributesOfItem(
                        atPath: directory.appendingPathComponent(name).path)[.modificationDate] as? Date
                else { return false }
                return Date().timeIntervalSince(modified) < Self.staleAfter
            }
        }
    }

    private func isExpired(_ modified: Date) -> Bool {
        now().date.timeIntervalSince(modified) > Double(retention.milliseconds) / 1000
    }

    private func archivePath(_ userId: Int64) -> String { directory.appendingPathComponent("\(userId).tar").path }

    /// Writes the archive as `<id>.<job>.partial` and renames it over `<id>.tar`; on failure or
    /// cancellation removes the partial file. The spool directory goes either way.
    private static func run(
        _ archiver: DataExportArchiver, _ viewer: Viewer, job: String, in directory: URL, at now: Timestamp
    ) async {
        let partial = directory.appendingPathComponent("\(viewer.id).\(job).partial").path
        let work = directory.appendingPathComponent("\(viewer.id).\(job).work")
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try await archiver.write(viewer, to: partial, work: work, at: now)
            try Task.checkCancellation()
            let archive = directory.appendingPathComponent("\(viewer.id).tar").path
            guard rename(partial, archive) == 0 else { throw MediaFileError.system("rename", errno) }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            if !(error is CancellationError) {
                Logger(label: "chirp.export").error(
                    "data export failed", metadata: ["user": "\(viewer.id)", "error": "\(error)"])
            }
        }
    }

    private static func sizeAndTime(_ path: String) async throws -> (Int64, Date)? {
        try await NIOThreadPool.singleton.runIfActive {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let size = (attributes[.size] as? NSNumber)?.int64Value,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            return (size, modified)
        }
    }

    static let notFound = APIError(
        .notFound, APIErrorCode.exportNotFound, "There is no export of your data: ask for one with POST /v1/me/export.")
}
