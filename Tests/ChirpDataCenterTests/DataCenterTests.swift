import ChirpDataCenter
import ChirpNetworking
import ChirpPersistence
import Foundation
import Synchronization
import Testing

struct RemoteItem: Codable, Sendable {
    var id: Int
    var title: String
}
struct ItemList: Codable, Sendable { var items: [RemoteItem] }

struct ListItems: Endpoint {
    typealias Response = ItemList
    var folder: String
    var path: String { "/folders/\(folder)/items" }
}

struct Item: DataCenterManaged {
    static let tableName = "items"
    var id: String
    var folder: String
    var title: String

    static func records(from response: ItemList, for request: ListItems) throws -> [Item] {
        try response.items.map {
            guard !$0.title.isEmpty else { throw TransformError() }
            return Item(id: "\(request.folder)/\($0.id)", folder: request.folder, title: $0.title)
        }
    }

    static func scope(of request: ListItems) -> RecordQuery? {
        RecordQuery().filter("folder", .equal, .text(request.folder))
    }
}

struct TransformError: Error, Equatable {}

/// An `Item` whose refresh only adds (no scope).
struct LogLine: DataCenterManaged {
    static let tableName = "lines"
    var id: String
    var title: String
    static func records(from response: ItemList, for request: ListItems) throws -> [LogLine] {
        response.items.map { LogLine(id: String($0.id), title: $0.title) }
    }
}

final class ManualClock: Sendable {
    private let current = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    func advance(_ by: Duration) { current.withLock { $0 += by } }
}

func itemsJSON(_ items: [(Int, String)]) -> String {
    let body = items.map { #"{"id":\#($0.0),"title":"\#($0.1)"}"# }.joined(separator: ",")
    return #"{"items":[\#(body)]}"#
}

/// The stored side of a test center: repositories the center's writers write to, and every
/// hand-over the writers received.
final class TestStores: Sendable {
    let items: any Repository<Item>
    let lines = InMemoryRepository<LogLine>()
    private let handOvers = Mutex<[(count: Int, scoped: Bool)]>([])

    init(sqlite: Bool) throws {
        if sqlite {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "dc-\(UUID().uuidString)/db.sqlite"
            ).path
            let store = try SQLiteStore(
                path: path,
                migrations: [
                    .init(
                        name: "v1",
                        sql: "CREATE TABLE items (id TEXT PRIMARY KEY, folder TEXT NOT NULL, title TEXT NOT NULL)")
                ])
            items = try SQLiteRepository<Item>(store: store)
        } else {
            items = InMemoryRepository<Item>()
        }
    }

    /// What each write was handed: how many records, and whether with a scope.
    var writes: [(count: Int, scoped: Bool)] { handOvers.withLock { $0 } }

    /// A writer that replaces the scope (or adds, without one) in `repository`.
    func writer<Model: StoredRecord>(_ repository: any Repository<Model>) -> RecordWriter<Model> {
        RecordWriter { records, scope in
            self.handOvers.withLock { $0.append((records.count, scope != nil)) }
            if let scope {
                try await repository.replace(matching: scope, with: records)
            } else {
                try await repository.save(records)
            }
        }
    }
}

func makeCenter(_ mock: MockTransport, clock: ManualClock = ManualClock(), stores: TestStores? = nil) throws
    -> DataCenter
{
    let client = APIClient(
        server: Server(baseURL: URL(string: "http://api.test")!), transport: mock, sleep: { _ in }, random: { 0 })
    let center = DataCenter(client: client, now: { clock.now })
    let stores = try stores ?? TestStores(sqlite: false)
    center.register(stores.writer(stores.items))
    center.register(stores.writer(stores.lines))
    return center
}

@Suite("Data center")
struct DataCenterTests {
    @Test(arguments: [false, true])
    func updateFetchesTransformsAndHandsTheRecordsToTheWriterAtOnce(sqlite: Bool) async throws {
        let mock = MockTransport()
        mock.stub(.get, "/folders/inbox/items", status: 200, json: itemsJSON([(1, "one"), (2, "two"), (3, "three")]))
        let stores = try TestStores(sqlite: sqlite)
        let center = try makeCenter(mock, stores: stores)
        #expect(try await center.update(Item.self, with: ListItems(folder: "inbox")) == .refreshed(count: 3))
        // The writer gets the whole reply in one hand-over, with the scope it stands for.
        #expect(stores.writes.map(\.count) == [3] && stores.writes.map(\.scoped) == [true])
        #expect(try await stores.items.fetch(id: "inbox/2")?.title == "two")
        #expect(try await stores.items.fetch(.all).count == 3)
    }

    @Test func aRefreshReplacesItsScopeOnly() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/folders/inbox/items",
            answers: [
                .reply(TransportResponse(status: 200, body: Data(itemsJSON([(1, "one"), (2, "two")]).utf8))),
                .reply(TransportResponse(status: 200, body: Data(itemsJSON([(2, "two, edited")]).utf8))),
            ])
        mock.stub(.get, "/folders/archive/items", status: 200, json: itemsJSON([(9, "old")]))
        let stores = try TestStores(sqlite: false)
        let center = try makeCenter(mock, stores: stores)
        try await center.update(Item.self, with: ListItems(folder: "inbox"))
        try await center.update(Item.self, with: ListItems(folder: "archive"))
        try await center.update(Item.self, with: ListItems(folder: "inbox"))
        let stored = try await stores.items.fetch(.all.order(by: "title"))
        #expect(stored.map(\.id) == ["archive/9", "inbox/2"], "inbox/1 is gone from the server, archive untouched")
        // A model without a scope only adds.
        mock.stub(.get, "/folders/log/items", status: 200, json: itemsJSON([(5, "x")]))
        try await center.update(LogLine.self, with: ListItems(folder: "log"))
        mock.stub(.get, "/folders/log/items", status: 200, json: itemsJSON([(6, "y")]))
        try await center.update(LogLine.self, with: ListItems(folder: "log"))
        #expect(try await stores.lines.fetch(.all).map(\.id) == ["5", "6"])
        #expect(
            stores.writes.map(\.scoped) == [true, true, true, false, false],
            "a model without a scope is handed over without one")
    }

    @Test func freshRequestsAreSkippedUntilTheyAge() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/folders/inbox/items", status: 200, json: itemsJSON([(1, "one")]))
        let clock = ManualClock()
        let center = try makeCenter(mock, clock: clock)
        let request = ListItems(folder: "inbox")
        #expect(
            try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(60)))
                == .refreshed(count: 1))
        clock.advance(.seconds(30))
        #expect(try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(60))) == .fresh)
        #expect(mock.requests.count == 1)
        #expect(try await center.update(Item.self, with: request, policy: .always) == .refreshed(count: 1))
        clock.advance(.seconds(61))
        #expect(
            try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(60)))
                == .refreshed(count: 1))
        center.invalidateAll()
        #expect(
            try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(60)))
                == .refreshed(count: 1))
        #expect(mock.requests.count == 4)
    }

    @Test func errorsReachTheCallerAndKeepStoredData() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/folders/inbox/items",
            answers: [
                .reply(TransportResponse(status: 200, body: Data(itemsJSON([(1, "one")]).utf8))),
                .reply(
                    TransportResponse(status: 403, body: Data(#"{"error":{"code":"forbidden","message":"no"}}"#.utf8))),
                .reply(TransportResponse(status: 200, body: Data(itemsJSON([(1, "")]).utf8))),
            ])
        let stores = try TestStores(sqlite: false)
        let center = try makeCenter(mock, stores: stores)
        let request = ListItems(folder: "inbox")
        try await center.update(Item.self, with: request)
        await #expect(throws: NetworkError.server(status: 403, code: "forbidden", message: "no", field: nil)) {
            try await center.update(Item.self, with: request, policy: .ifOlderThan(.zero))
        }
        await #expect(throws: TransformError()) { try await center.update(Item.self, with: request) }
        #expect(try await stores.items.fetch(.all).map(\.title) == ["one"])
        #expect(stores.writes.count == 1, "a failed refresh hands nothing to the writer")
        // A failed refresh does not count as fresh.
        mock.stub(.get, "/folders/inbox/items", status: 200, json: itemsJSON([(1, "uno")]))
        #expect(try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(3600))) == .fresh)
        center.invalidateAll()
        #expect(
            try await center.update(Item.self, with: request, policy: .ifOlderThan(.seconds(3600)))
                == .refreshed(count: 1))
    }

    @Test func unregisteredModelsAreAClearError() async throws {
        struct Stray: DataCenterManaged {
            static let tableName = "stray"
            var id: Int
            static func records(from response: ItemList, for request: ListItems) -> [Stray] { [] }
        }
        let center = try makeCenter(MockTransport())
        await #expect(throws: DataCenterError.notRegistered("Stray")) {
            try await center.update(Stray.self, with: ListItems(folder: "x"))
        }
        #expect(DataCenterError.notRegistered("Stray").description.contains("register"))
    }

    @Test func concurrentUpdatesOfOneRequestShareACall() async throws {
        let mock = MockTransport(sleep: { try await Task.sleep(for: $0) })
        mock.faults = .init(latency: .milliseconds(200))
        mock.stub(.get, "/folders/inbox/items", status: 200, json: itemsJSON([(1, "one")]))
        let center = try makeCenter(mock)
        let outcomes = try await withThrowingTaskGroup(of: UpdateOutcome.self) { group in
            for _ in 0..<5 { group.addTask { try await center.update(Item.self, with: ListItems(folder: "inbox")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: .refreshed(count: 1), count: 5))
        #expect(mock.requests.count == 1)
    }

    @Test func aWriterThatFailsFailsTheUpdateAndItIsNotFresh() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/folders/inbox/items", status: 200, json: itemsJSON([(1, "one")]))
        let client = APIClient(
            server: Server(baseURL: URL(string: "http://api.test")!), transport: mock, sleep: { _ in }, random: { 0 })
        let center = DataCenter(client: client)
        let refusing = Mutex(true)
        center.register(RecordWriter<Item> { _, _ in if refusing.withLock({ $0 }) { throw TransformError() } })
        await #expect(throws: TransformError()) { try await center.update(Item.self, with: ListItems(folder: "inbox")) }
        refusing.withLock { $0 = false }
        #expect(
            try await center.update(Item.self, with: ListItems(folder: "inbox"), policy: .ifOlderThan(.seconds(60)))
                == .refreshed(count: 1))
        #expect(mock.requests.count == 2)
    }
}
