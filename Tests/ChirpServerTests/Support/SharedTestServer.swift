import Synchronization

@testable import ChirpServer

/// One in-process test server (`TestServer.run`) that the cases of a sweep share: started at
/// the first case's use and kept until the test process ends. For sweeps whose cases each
/// need only a user of their own (`nextUsername`), where a server per argument cost a start
/// (router, storage, migrations) per case for the same check.
final class SharedTestServer: Sendable {
    let configuration: ServerConfiguration
    private let started: Task<APIHarness, any Error>
    private let names = Atomic<Int>(0)

    init(_ configuration: ServerConfiguration = TestServer.configuration()) {
        self.configuration = configuration
        started = Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<APIHarness, any Error>) in
                Task.detached {
                    let running = Mutex(false)
                    do {
                        try await TestServer.run(configuration) { api in
                            running.withLock { $0 = true }
                            continuation.resume(returning: api)
                            while true { try await Task.sleep(for: .seconds(3_600)) }
                        }
                    } catch {
                        if !running.withLock({ $0 }) { continuation.resume(throwing: error) }
                    }
                }
            }
        }
    }

    /// The running server's harness.
    var api: APIHarness {
        get async throws { try await started.value }
    }

    /// A username no other case of this server has used: `PREFIX` and a number.
    func nextUsername(_ prefix: String) -> String {
        "\(prefix)\(names.add(1, ordering: .relaxed).newValue)"
    }
}
