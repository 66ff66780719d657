import ChirpPersistence

/// How far the client has applied its event stream: `lastSeq` is the seq of the last stored
/// event applied. Sync resumes after it.
public struct SyncCursor: StoredRecord {
    public static let tableName = "sync_cursor"
    /// Always `events`.
    public var id: String
    public var lastSeq: Int64

    /// The cursor row.
    public init(lastSeq: Int64) {
        id = "events"
        self.lastSeq = lastSeq
    }
}
