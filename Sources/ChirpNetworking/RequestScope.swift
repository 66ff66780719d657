import Foundation
import Synchronization

/// Ties requests to the lifetime of their owner (a screen, a view model): when the scope is
/// released, every request still pending through it is cancelled (its caller gets
/// `NetworkError.cancelled`) and later sends fail at once.
///
/// The owner keeps the scope; the work it starts keeps only `scope.requests`, so a running
/// request does not keep the owner's scope alive:
///
/// ```swift
/// final class ProfileModel {
///     private let scope: RequestScope
///     init(client: APIClient) { scope = RequestScope(client: client) }
///     func load() {
///         let requests = scope.requests
///         Task { self.show(try await requests.send(GetProfile(name: "alice"))) }
///     }
/// }   // releasing the model cancels a load still in flight
/// ```
public final class RequestScope: Sendable {
    /// Sends requests on behalf of this scope.
    public let requests: ScopedRequests

    /// A scope sending through `client`.
    public init(client: APIClient) {
        requests = ScopedRequests(client: client)
    }

    deinit {
        requests.close()
    }

    /// Cancels every pending request now; the scope stays usable.
    public func cancelAll() {
        requests.cancelPending()
    }
}

/// The sending side of a `RequestScope`.
public final class ScopedRequests: Sendable {
    private struct State {
        var pending: [UUID: @Sendable () -> Void] = [:]
        var closed = false
    }

    private let client: APIClient
    private let state = Mutex(State())

    init(client: APIClient) {
        self.client = client
    }

    /// Number of requests in flight.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Whether the scope that owns these requests is gone.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Sends through the scope's client; cancelled with the scope or with the calling task.
    public func send<E: Endpoint>(_ endpoint: E) async throws(NetworkError) -> E.Response {
        let client = self.client
        let task = Task { () -> Result<E.Response, NetworkError> in
            do throws(NetworkError) { return .success(try await client.send(endpoint)) } catch { return .failure(error) }
        }
        let id = UUID()
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.pending[id] = { task.cancel() }
            return true
        }
        guard accepted else {
            task.cancel()
            throw .cancelled
        }
        defer { state.withLock { _ = $0.pending.removeValue(forKey: id) } }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    func cancelPending() {
        let cancels = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for cancel in cancels { cancel() }
    }

    func close() {
        state.withLock { $0.closed = true }
        cancelPending()
    }
}
