import Logging

extension PostgresStorage {
    /// Runs `body` on the database of `settings`, opened (and migrated) for it alone: the pool
    /// runs only while `body` does. For work outside a server: `chirp admin`, bench seeding.
    static func withOpened<Value: Sendable>(
        settings: PostgresSettings, logger: Logger, _ body: @escaping @Sendable (PostgresStorage) async throws -> Value
    ) async throws -> Value {
        let storage: PostgresStorage
        do {
            storage = try await PostgresStorage.open(settings: settings, logger: logger)
        } catch {
            throw AdministrationError(
                "cannot use the PostgreSQL database \(settings.redactedURL): \(DatabaseFailure.describe(error))")
        }
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask {
                await storage.run()
                return nil
            }
            group.addTask { try await body(storage) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let value = result { return value }
            }
            throw AdministrationError("the PostgreSQL pool stopped before the work finished")
        }
    }
}
