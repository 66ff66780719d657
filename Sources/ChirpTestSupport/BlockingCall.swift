import Dispatch

/// Runs a blocking call (waiting for a process, a tmux client) on a dispatch thread instead of
/// the test's own: swift-testing runs every test on the cooperative pool, as many threads as
/// cores, so a test that blocks one of them for seconds stalls the timers and awaits of every
/// other test for as long (a 200 ms deadline was seen to fire after 30 s).
public enum BlockingCall {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
