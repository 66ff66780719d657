import ChirpPersistence

/// Read-only access to one model's stored records, as snapshots or as live observations.
public struct DataAccessObject<Model: StoredRecord>: Sendable {
    let repository: any Repository<Model>

    /// Access through this repository.
    public init(repository: any Repository<Model>) {
        self.repository = repository
    }

    /// Every stored record, by id.
    public func all() async throws -> [Model] { try await repository.fetch(.all) }

    /// The records a query selects.
    public func fetch(_ query: RecordQuery) async throws -> [Model] { try await repository.fetch(query) }

    /// The record with this id.
    public func find(id: Model.ID) async throws -> Model? { try await repository.fetch(id: id) }

    /// All records now and after each change.
    public func observeAll() -> AsyncThrowingStream<[Model], any Error> { repository.observe(.all) }

    /// A filtered selection now and after each change that alters it.
    public func observe(_ query: RecordQuery) -> AsyncThrowingStream<[Model], any Error> { repository.observe(query) }
}
