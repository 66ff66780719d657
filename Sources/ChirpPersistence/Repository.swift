/// Stores records of one type. Callers see plain values only; every implementation (SQLite,
/// in memory) passes the same contract tests.
///
/// ```swift
/// let notes: any Repository<Note> = try SQLiteRepository(store: store)
/// try await notes.save([Note(id: "1", text: "hello", updatedAt: 1)])
/// let recent = try await notes.fetch(.all.order(by: "updatedAt", ascending: false).limit(10))
/// ```
public protocol Repository<Record>: Sendable {
    associatedtype Record: StoredRecord

    /// The record with this id, if stored.
    func fetch(id: Record.ID) async throws -> Record?
    /// The records the query selects, in its order (then by id).
    func fetch(_ query: RecordQuery) async throws -> [Record]
    /// How many records the query selects (its limit ignored).
    func count(_ query: RecordQuery) async throws -> Int
    /// Inserts or updates (by id) all records in one transaction.
    func save(_ records: [Record]) async throws
    /// In one transaction, deletes the records the query selects and saves `records`: a
    /// refreshed list replaces the old one without a moment where observers see neither.
    func replace(matching query: RecordQuery, with records: [Record]) async throws
    /// Deletes these ids (unknown ids are ignored); returns how many were deleted.
    @discardableResult func delete(ids: [Record.ID]) async throws -> Int
    /// Deletes what the query selects; returns how many were deleted.
    @discardableResult func delete(matching query: RecordQuery) async throws -> Int
}
