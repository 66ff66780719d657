import ChirpNetworking
import ChirpPersistence
import Synchronization

/// Reads come from the local store, writes come from the network: `update(with:)` calls a
/// model's refresh endpoint, turns the reply into records and writes them all in one
/// transaction, and everyone observing that model through a `DataAccessObject` sees the new
/// values. Errors reach the caller; a failed refresh leaves the stored data as it was.
///
/// ```swift
/// let center = DataCenter(client: client)
/// center.register(SQLiteRepository<Follower>(store: store))
/// try await center.update(Follower.self, with: ListFollowers(owner: "alice"), policy: .ifOlderThan(.seconds(60)))
/// for try await followers in center.access(Follower.self).observeAll() { render(followers) }
/// ```
public final class DataCenter: Sendable {
    private struct RepositoryBox: @unchecked Sendable {
        // Holds an `any Repository<Model>`; only read back as the same `Model`.
        let repository: Any
    }

    /// The client that refresh calls go through.
    public let client: APIClient
    private let now: @Sendable () -> ContinuousClock.Instant
    private let repositories = Mutex<[ObjectIdentifier: RepositoryBox]>([:])
    private let lastRefresh = Mutex<[String: ContinuousClock.Instant]>([:])
    private let inFlight = Mutex<[String: Task<Int, any Error>]>([:])

    /// - Parameter now: the clock for freshness (inject to test without waiting).
    public init(client: APIClient, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.client = client
        self.now = now
    }

    /// Makes a model's repository known; call once per model at start-up.
    public func register<Model: StoredRecord>(_ repository: any Repository<Model>) {
        repositories.withLock { $0[ObjectIdentifier(Model.self)] = RepositoryBox(repository: repository) }
    }

    /// The repository registered for a model.
    public func repository<Model: StoredRecord>(for type: Model.Type) throws(DataCenterError) -> any Repository<Model> {
        guard let box = repositories.withLock({ $0[ObjectIdentifier(Model.self)] }),
              let repository = box.repository as? any Repository<Model>
        else { throw .notRegistered(String(describing: Model.self)) }
        return repository
    }

    /// Reading access to a model's stored records.
    public func access<Model: StoredRecord>(_ type: Model.Type) throws(DataCenterError) -> DataAccessObject<Model> {
        DataAccessObject(repository: try repository(for: type))
    }

    /// Refreshes a model from the network unless the policy says the stored data is fresh.
    /// Concurrent updates of the same request share one network call.
    @discardableResult
    public func update<Model: DataCenterManaged>(
        _ type: Model.Type = Model.self, with request: Model.Refresh, policy: FreshnessPolicy = .always
    ) async throws -> UpdateOutcome {
        let repository = try repository(for: Model.self)
        let key = Self.key(Model.self, request)
        if case .ifOlderThan(let age) = policy, let last = lastRefresh.withLock({ $0[key] }), now() - last < age {
            return .fresh
        }
        let (task, owner) = inFlight.withLock { table -> (Task<Int, any Error>, Bool) in
            if let running = table[key] { return (running, false) }
            let client = self.client
            let task = Task<Int, any Error> {
                let response = try await client.send(request)
                let records = try Model.records(from: response, for: request)
                if let scope = Model.scope(of: request) {
                    try await repository.replace(matching: scope, with: records)
                } else {
                    try await repository.save(records)
                }
                return records.count
            }
            table[key] = task
            return (task, true)
        }
        do {
            let count = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                if owner { task.cancel() }
            }
            if owner {
                let finished = now()
                lastRefresh.withLock { $0[key] = finished }
                inFlight.withLock { _ = $0.removeValue(forKey: key) }
            }
            return .refreshed(count: count)
        } catch {
            if owner { inFlight.withLock { _ = $0.removeValue(forKey: key) } }
            throw error
        }
    }

    /// Forgets when requests were last refreshed, so the next update of each calls the network.
    public func invalidateAll() {
        lastRefresh.withLock { $0.removeAll() }
    }

    private static func key<Model: DataCenterManaged>(_ type: Model.Type, _ request: Model.Refresh) -> String {
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(Model.self)|\(request.method) \(request.path)?\(query)"
    }
}
