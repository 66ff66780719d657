import Synchronization

/// A count shared by concurrent tasks.
package final class Tally: Sendable {
    private let count = Mutex(0)
    package init() {}
    package func add(_ value: Int = 1) { count.withLock { $0 += value } }
    package var value: Int { count.withLock { $0 } }
}
