import ChirpModels
import Hummingbird
import Synchronization

/// `--chaos RATE`: that share of API requests fails with 503 and `Retry-After: 1`; the others
/// are delayed by 0–200 ms. `/healthz`, `/metrics` and `/openapi.yaml` are left alone so that
/// supervisors and tests can still tell the server is up.
struct ChaosMiddleware<Context: RequestContext>: RouterMiddleware {
    let rate: Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard rate > 0, request.uri.path.hasPrefix("/v1/") else {
            return try await next(request, context)
        }
        if Double.random(in: 0..<1) < rate {
            throw APIError(
                .serviceUnavailable, APIErrorCode.unavailable, "The server is busy (chaos mode); retry shortly.",
                retryAfter: 1)
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
        return try await next(request, context)
    }
}

/// Test-only (`chirp serve --fail-once METHOD:PATH`, hidden): the first request with that
/// method and path is answered with a 500, so clients prove they report a server failure.
final class FailOnceMiddleware<Context: RequestContext>: RouterMiddleware {
    private let pending: Mutex<Set<String>>

    init(requests: [String]) {
        pending = Mutex(Set(requests))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let key = "\(request.method.rawValue):\(request.uri.path)"
        if pending.withLock({ $0.remove(key) != nil }) {
            throw APIError(.internalServerError, APIErrorCode.internalError, "Injected failure (--fail-once \(key)).")
        }
        return try await next(request, context)
    }
}
