import ChirpNetworking
import ChirpPersistence
import Synchronization

/// Brings stored models up to date from the network without writing them itself:
/// `update(with:)` calls a model's refresh endpoint (unless the last refresh of the same
/// request is fresh enough, and sharing one call among concurrent updates of it), turns the
/// reply into records and hands them to the `RecordWriter` registered for the model, the app's
/// one writer of that table. Errors reach the caller; a failed refresh hands nothing over.
///
/// ```swift
/// let center = DataCenter(client: client)
/// center.register(RecordWriter<Follower> { records, scope in try await store.replaceFollowers(records, in: scope) })
/// try await center.update(Follower.self, with: ListFollowers(owner: "alice"), policy: .ifOlderThan(.seconds(60)))
/// ```
public final class DataCenter: Sendable {
    private struct WriterBox: @unchecked Sendable {
        // Holds a `RecordWriter<Model>`; only read back as the same `Model`.
        let writer: Any
    }

    /// The client that refresh calls go through.
    public let client: APIClient
    private let now: @Sendable () -> ContinuousClock.Instant
    private let writers = Mutex<[ObjectIdentifier: WriterBox]>([:])
    private let lastRefresh = Mutex<[String: ContinuousClock.Instant]>([:])
    private let inFlight = Mutex<[String: Task<Int, any Error>]>([:])

    /// - Parameter now: the clock for freshness (inject to test without waiting).
    public init(client: APIClient, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.client = client
        self.now = now
    }

    /// Makes a model's writer known; call once per model at start-up.
    public func register<Model: StoredRecord>(_ writer: RecordWriter<Model>) {
        writers.withLock { $0[ObjectIdentifier(Model.self)] = WriterBox(writer: writer) }
    }

    /// The writer registered for a model.
    func writer<Model: StoredRecord>(for type: Model.Type) throws(DataCenterError) -> RecordWriter<Model> {
        guard let box = writers.withLock({ $0[ObjectIdentifier(Model.self)] }),
            let writer = box.writer as? RecordWriter<Model>
        else { throw .notRegistered(String(describing: Model.self)) }
        return writer
    }

    /// Refreshes a model from the network unless the policy says the stored data is fresh.
    /// Concurrent updates of the same request share one network call.
    @discardableResult
    public func update<Model: DataCenterManaged>(
        _ type: Model.Type = Model.self, with request: Model.Refresh, policy: FreshnessPolicy = .always
    ) async throws -> UpdateOutcome {
        let writer = try writer(for: Model.self)
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
                try await writer.write(records, Model.scope(of: request))
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
