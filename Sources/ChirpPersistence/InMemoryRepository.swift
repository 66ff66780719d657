import Foundation
import Synchronization

/// A `Repository` in memory: for tests, previews and caches that need no file. Rows are kept
/// in their stored form (through the same column coding as SQLite), so both implementations
/// agree on what a record round-trips to and on how queries compare values.
public final class InMemoryRepository<Record: StoredRecord>: Repository {
    private struct State {
        var rows: [StoredValue: [String: StoredValue]] = [:]
    }

    private let state = Mutex(State())

    /// An empty repository.
    public init() {}

    public func fetch(id: Record.ID) async throws -> Record? {
        let key = try ColumnEncoder.value(id)
        guard let row = state.withLock({ $0.rows[key] }) else { return nil }
        return try ColumnDecoder.decode(Record.self, from: row)
    }

    public func fetch(_ query: RecordQuery) async throws -> [Record] {
        try state.withLock { Self.select(query, from: $0.rows) }.map { try ColumnDecoder.decode(Record.self, from: $0) }
    }

    public func count(_ query: RecordQuery) async throws -> Int {
        state.withLock { $0.rows.values.filter(query.matches).count }
    }

    public func save(_ records: [Record]) async throws {
        let rows = try records.map { try (ColumnEncoder.value($0.id), ColumnEncoder.encode($0)) }
        mutate { state in
            for (key, row) in rows { state.rows[key] = row }
            return 0
        }
    }

    public func replace(matching query: RecordQuery, with records: [Record]) async throws {
        let rows = try records.map { try (ColumnEncoder.value($0.id), ColumnEncoder.encode($0)) }
        mutate { state in
            state.rows = state.rows.filter { !query.matches($0.value) }
            for (key, row) in rows { state.rows[key] = row }
            return 0
        }
    }

    @discardableResult
    public func delete(ids: [Record.ID]) async throws -> Int {
        let keys = try ids.map { try ColumnEncoder.value($0) }
        return mutate { state in keys.reduce(0) { $0 + (state.rows.removeValue(forKey: $1) == nil ? 0 : 1) } }
    }

    @discardableResult
    public func delete(matching query: RecordQuery) async throws -> Int {
        mutate { state in
            let before = state.rows.count
            state.rows = state.rows.filter { !query.matches($0.value) }
            return before - state.rows.count
        }
    }

    // MARK: internals

    /// Applies a change under the lock.
    private func mutate(_ change: (inout State) -> Int) -> Int {
        state.withLock { change(&$0) }
    }

    private static func select(_ query: RecordQuery, from rows: [StoredValue: [String: StoredValue]]) -> [[String:
        StoredValue]]
    {
        let selected = query.sort(rows.values.filter(query.matches))
        return query.limit.map { Array(selected.prefix($0)) } ?? selected
    }
}
