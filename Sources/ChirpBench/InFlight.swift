/// Work over many items with a bound on how much of it is in flight at once.
enum InFlight {
    /// `body` of each of `items`, at most `atOnce` at a time; the results in the order of `items`.
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], atOnce: Int, _ body: @escaping @Sendable (Item) async throws -> Result
    ) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { tasks in
            var results: [Int: Result] = [:]
            for (index, item) in items.enumerated() {
                if index >= max(atOnce, 1), let (done, result) = try await tasks.next() { results[done] = result }
                tasks.addTask { (index, try await body(item)) }
            }
            for try await (done, result) in tasks { results[done] = result }
            return results.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}
