import Foundation
import Synchronization

/// A `Transport` for tests: canned replies per method and path, injectable faults, and a log
/// of every request it saw.
///
/// ```swift
/// let mock = MockTransport()
/// mock.stub(.get, "/v1/me", status: 200, json: #"{"name":"alice"}"#)
/// mock.faults = .init(failureRate: 0.2, latency: .milliseconds(50))
/// ```
public final class MockTransport: Transport {
    /// Faults applied to every request.
    public struct Faults: Sendable {
        /// Share of requests (0–1) that fail with `NetworkError.transport`.
        public var failureRate: Double
        /// Added latency; a latency at or above the request timeout fails with `.timeout`.
        public var latency: Duration
        /// Share of requests (0–1) that are dropped: never answered, so they time out.
        public var dropRate: Double

        /// Creates a fault set; all zero means no faults.
        public init(failureRate: Double = 0, latency: Duration = .zero, dropRate: Double = 0) {
            self.failureRate = failureRate
            self.latency = latency
            self.dropRate = dropRate
        }
    }

    /// One scripted answer: a reply or an error.
    public enum Answer: Sendable {
        case reply(TransportResponse)
        case failure(NetworkError)
    }

    /// Computes an answer from the request.
    public typealias Responder = @Sendable (TransportRequest) -> Answer

    private struct State {
        var stubs: [String: [Answer]] = [:]
        var responders: [(method: HTTPMethod, prefix: String, respond: Responder)] = []
        var requests: [TransportRequest] = []
        var faults = Faults()
    }

    private let state = Mutex(State())
    private let random: @Sendable () -> Double
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - random: source of randomness for fault rates (inject for deterministic tests).
    ///   - sleep: how latency is spent; by default a real sleep (inject to make it instant).
    public init(
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.random = random
        self.sleep = sleep
    }

    /// Faults applied to the next requests.
    public var faults: Faults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Every request performed so far, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// Answers `method path` with these answers in turn; the last one repeats.
    public func stub(_ method: HTTPMethod, _ path: String, answers: [Answer]) {
        state.withLock { $0.stubs["\(method) \(path)"] = answers }
    }

    /// Answers `method path` with one reply, always.
    public func stub(
        _ method: HTTPMethod, _ path: String, status: Int, json: String = "", headers: [String: String] = [:]
    ) {
        var headers = headers
        if !json.isEmpty { headers["Content-Type"] = "application/json" }
        stub(
            method, path, answers: [.reply(TransportResponse(status: status, headers: headers, body: Data(json.utf8)))])
    }

    /// Answers every `method` request whose path starts with `pathPrefix` (and has no exact
    /// stub) by calling `respond`: for replies that depend on the request, such as echoing ids.
    public func respond(_ method: HTTPMethod, pathPrefix: String, with respond: @escaping Responder) {
        state.withLock { $0.responders.append((method, pathPrefix, respond)) }
    }

    public func perform(_ request: TransportRequest) async throws(NetworkError) -> TransportResponse {
        let (stubbed, responder, faults) = state.withLock { state -> (Answer?, Responder?, Faults) in
            state.requests.append(request)
            let key = "\(request.method) \(request.url.path)"
            guard var answers = state.stubs[key], !answers.isEmpty else {
                let responder = state.responders.last {
                    $0.method == request.method && request.url.path.hasPrefix($0.prefix)
                }
                return (nil, responder?.respond, state.faults)
            }
            let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
            state.stubs[key] = answers
            return (answer, nil, state.faults)
        }
        if faults.dropRate > 0, random() < faults.dropRate { throw .timeout }
        if faults.latency >= request.timeout { throw .timeout }
        if faults.latency > .zero {
            do { try await sleep(faults.latency) } catch { throw .cancelled }
        }
        if Task.isCancelled { throw .cancelled }
        if faults.failureRate > 0, random() < faults.failureRate { throw .transport("injected failure") }
        // A responder runs only for requests that get through, as a server would.
        switch stubbed ?? responder?(request) {
        case .reply(let response)?: return response
        case .failure(let error)?: throw error
        case nil:
            return TransportResponse(
                status: 404, headers: ["Content-Type": "application/json"],
                body: Data(
                    #"{"error":{"code":"not_stubbed","message":"no stub for \#(request.method) \#(request.url.path)"}}"#
                        .utf8))
        }
    }
}
