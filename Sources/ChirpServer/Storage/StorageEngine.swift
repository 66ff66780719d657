/// A database engine the stores run on: reads on a connection of their own, writes in one
/// transaction each. The store protocols' implementations are written once, as extensions of
/// this protocol (`StorageEngine+Social`, …), and `SQLiteStorage` and `PostgresStorage` get
/// them by conforming.
protocol StorageEngine: Sendable {
    associatedtype Scope: StorageScope

    /// Runs `body` outside a transaction (each statement sees the newest committed data).
    func reading<T: Sendable>(_ body: @escaping @Sendable (Scope) async throws -> T) async throws -> T

    /// Runs `body` in a transaction and returns its result once committed; a `body` that
    /// throws leaves nothing behind.
    func writing<T: Sendable>(_ body: @escaping @Sendable (Scope) async throws -> T) async throws -> T
}
