import ChirpPersistence

/// Where a refreshed model's records go: the app's one writer of that model's table. The data
/// center fetches and transforms; the writer decides how the records meet what is stored (a
/// merge whose states only move forward, a replacement of a list), so a refresh never writes
/// around the rules the rest of the app writes by.
///
/// ```swift
/// center.register(RecordWriter<Follower> { records, scope in try await store.replaceFollowers(records, in: scope) })
/// ```
public struct RecordWriter<Model: StoredRecord>: Sendable {
    /// Stores `records`; `scope`, when not nil, selects the stored records the reply stands for
    /// (those of them not in `records` are gone on the server).
    public var write: @Sendable (_ records: [Model], _ scope: RecordQuery?) async throws -> Void

    /// A writer from its closure.
    public init(_ write: @escaping @Sendable (_ records: [Model], _ scope: RecordQuery?) async throws -> Void) {
        self.write = write
    }
}
