import ChirpNetworking
import Foundation
import Synchronization

/// A transport in front of a `MockTransport` that holds the requests `holds` selects until
/// `open()`: a reply the server has written but the client has not read yet. Counts requests
/// in flight, so a test can see how many ran at once.
final class GatedTransport: Transport {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var held = 0
        var inFlight = 0
        var maxInFlight = 0
    }

    let mock: MockTransport
    private let holds: @Sendable (TransportRequest) -> Bool
    private let state = Mutex(State())

    /// Holds every request `holds` selects (by default all of them).
    init(_ mock: MockTransport, holding holds: @escaping @Sendable (TransportRequest) -> Bool = { _ in true }) {
        self.mock = mock
        self.holds = holds
    }

    /// How many requests reached the gate so far.
    var heldCount: Int { state.withLock { $0.held } }
    /// The most requests that were in flight at once.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// Lets every held request (and all later ones) through.
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until `count` requests reached the gate (or fails after a while).
    func waitUntilHeld(_ count: Int = 1) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while heldCount < count {
            guard ContinuousClock.now < deadline else { throw GateTimeout() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    func perform(_ request: TransportRequest) async throws(NetworkError) -> TransportResponse {
        state.withLock {
            $0.inFlight += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        if holds(request) {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state -> Bool in
                    state.held += 1
                    if !state.isOpen { state.waiting.append(continuation) }
                    return state.isOpen
                }
                if isOpen { continuation.resume() }
            }
        }
        return try await mock.perform(request)
    }
}

struct GateTimeout: Error {}
