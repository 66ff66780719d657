/// Seeds many items fast: `concurrently` runs a body for each number, a batch of `width` at a
/// time, each batch finished before the next starts (so numbers stay roughly in order), with
/// no sleeps. Tests use it to send thousands of messages in a few seconds.
public enum Seeding {
    /// Runs `body` for every number of `numbers`, `width` at once.
    public static func concurrently(
        _ numbers: ClosedRange<Int>, width: Int = 50, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        for start in stride(from: numbers.lowerBound, through: numbers.upperBound, by: width) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in start...min(start + width - 1, numbers.upperBound) {
                    group.addTask { try await body(number) }
                }
                try await group.waitForAll()
            }
        }
    }
}
