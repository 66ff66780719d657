import Foundation
import NIOPosix
import Synchronization

/// A user's media quota as uploads are admitted (issue 36): the bytes of stored media, the
/// declared totals of unfinished resumable uploads (their descriptions on disk) and the
/// declared sizes of whole uploads being received on this instance all count, and a new
/// upload is admitted only if it fits beside them. Admissions of one user are taken one at a
/// time, so concurrent uploads cannot pass the quota together; a user holds at most
/// `maxUnfinished` unfinished resumable uploads (an abandoned one stops counting when the
/// sweep removes it, after `--unreferenced-media-lifetime`, 24 hours by default).
///
/// The whole uploads in flight are this instance's: instances sharing a PostgreSQL database
/// and a media directory see each other's unfinished uploads (on disk) but not each other's
/// whole uploads in flight.
struct MediaQuota: Sendable {
    let store: any MediaStore
    let files: MediaFiles
    let quotaBytes: Int64
    let maxUnfinished: Int
    private let admissions = UploadLocks()
    private let inFlight = InFlight()

    init(store: any MediaStore, files: MediaFiles, quotaBytes: Int64, maxUnfinished: Int) {
        self.store = store
        self.files = files
        self.quotaBytes = quotaBytes
        self.maxUnfinished = maxUnfinished
    }

    /// Admits a whole upload of `bytes` (the declared length, or the largest media when none
    /// is declared) for the duration of `body`, or throws 403 `quota_exceeded`.
    func whole<T: Sendable>(owner: Int64, bytes: Int64, _ body: @Sendable () async throws -> T) async throws -> T {
        let ticket = try await admissions.withLock(String(owner)) {
            try await check(owner: owner, adding: bytes, except: nil)
            return inFlight.add(owner: owner, bytes: bytes)
        }
        defer { inFlight.remove(owner: owner, ticket: ticket) }
        return try await body()
    }

    /// Admits the start of a resumable upload of `total` bytes and runs `start` (which writes
    /// its description, after which it counts) while no other admission of the owner runs;
    /// 403 `quota_exceeded` when it does not fit or the owner has `maxUnfinished` already.
    func startParts(owner: Int64, clientMediaId: String, total: Int64, _ start: @Sendable () async throws -> Void)
        async throws
    {
        try await admissions.withLock(String(owner)) {
            let unfinished = try await files.unfinishedUploads(owner: owner)
            if unfinished.count >= maxUnfinished {
                throw APIError(
                    .forbidden, Self.code,
                    "You have \(maxUnfinished) unfinished uploads; finish one before starting another (unfinished ones expire after a day)."
                )
            }
            try await check(owner: owner, adding: total, except: clientMediaId)
            try await start()
        }
    }

    /// Whether a finished resumable upload of `total` bytes still fits beside everything else.
    func finishParts(owner: Int64, clientMediaId: String, total: Int64) async throws {
        try await admissions.withLock(String(owner)) {
            try await check(owner: owner, adding: total, except: clientMediaId)
        }
    }

    private func check(owner: Int64, adding bytes: Int64, except clientMediaId: String?) async throws {
        let stored = try await store.mediaBytes(owner: owner)
        let unfinished = try await files.unfinishedUploads(owner: owner)
            .filter { $0.clientMediaId != clientMediaId }.reduce(Int64(0)) { $0 + $1.total }
        if stored + unfinished + inFlight.bytes(owner: owner) + bytes > quotaBytes { throw exceeded() }
    }

    func exceeded() -> APIError {
        APIError(
            .forbidden, Self.code,
            "This upload would take you over your \(quotaBytes)-byte media quota (unfinished uploads count); send fewer or smaller media."
        )
    }

    static let code = "quota_exceeded"

    /// The whole uploads being received on this instance, per owner.
    private final class InFlight: Sendable {
        private let table = Mutex<(next: Int, owners: [Int64: [Int: Int64]])>((0, [:]))

        func add(owner: Int64, bytes: Int64) -> Int {
            table.withLock { state in
                state.next += 1
                state.owners[owner, default: [:]][state.next] = bytes
                return state.next
            }
        }

        func remove(owner: Int64, ticket: Int) {
            table.withLock { state in
                state.owners[owner]?[ticket] = nil
                if state.owners[owner]?.isEmpty == true { state.owners[owner] = nil }
            }
        }

        func bytes(owner: Int64) -> Int64 {
            table.withLock { $0.owners[owner]?.values.reduce(0, +) ?? 0 }
        }
    }
}
