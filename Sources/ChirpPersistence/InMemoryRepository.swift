import Foundation
import Synchronization

/// A `Repository` in memory: for tests, previews and caches that need no file. Rows are kept
/// in their stored form (through the same column coding as SQLite), so both implementations
/// agree on what a record round-trips to and on how queries compare values.
public final class InMemoryRepository<Record: StoredRecord>: Repository {
    private struct Observer {
        var query: RecordQuery
        var continuation: AsyncThrowingStream<[Record], any Error>.Continuation
        var last: [[String: StoredValue]]?
    }

    private struct State {
        var rows: [StoredValue: [String: StoredValue]] = [:]
        var observers: [UUID: Observer] = [:]
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

    public func observe(_ query: RecordQuery) -> AsyncThrowingStream<[Record], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[Record], any Error>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        let initial = state.withLock { state -> [[String: StoredValue]] in
            let rows = Self.select(query, from: state.rows)
            state.observers[id] = Observer(query: query, continuation: continuation, last: rows)
            return rows
        }
        Self.yield(initial, to: continuation)
        return stream
    }

    // MARK: internals

    /// Applies a change, then tells every observer whose result changed.
    private func mutate(_ change: (inout State) -> Int) -> Int {
        let (result, notifications) = state.withLock { state -> (Int, [([[String: StoredValue]], AsyncThrowingStream<[Record], any Error>.Continuation)]) in
            let result = change(&state)
            var notifications: [([[String: StoredValue]], AsyncThrowingStream<[Record], any Error>.Continuation)] = []
            for (id, observer) in state.observers {
                let rows = Self.select(observer.query, from: state.rows)
                if rows != observer.last {
                    state.observers[id]?.last = rows
                    notifications.append((rows, observer.continuation))
                }
            }
            return (result, notifications)
        }
        for (rows, continuation) in notifications { Self.yield(rows, to: continuation) }
        return result
    }

    private static func yield(_ rows: [[String: StoredValue]], to continuation: AsyncThrowingStream<[Record], any Error>.Continuation) {
        do {
            continuation.yield(try rows.map { try ColumnDecoder.decode(Record.self, from: $0) })
        } catch {
            continuation.finish(throwing: error)
        }
    }

    private static func select(_ query: RecordQuery, from rows: [StoredValue: [String: StoredValue]]) -> [[String: StoredValue]] {
        let selected = query.sort(rows.values.filter(query.matches))
        return query.limit.map { Array(selected.prefix($0)) } ?? selected
    }
}
