import ChirpModels
import Hummingbird

/// `--chaos RATE`: that share of API requests fails with 503 and `Retry-After: 1`; the others
/// are delayed by 0–200 ms. `/healthz`, `/metrics` and `/openapi.yaml` are left alone so that
/// supervisors and tests can still tell the server is up.
struct ChaosMiddleware<Context: RequestContext>: RouterMiddleware {
    let rate: Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard rate > 0, request.uri.path.hasPrefix("/v1/") else {
            return try await next(request, context)
        }
        if Double.random(in: 0..<1) < rate {
            throw APIError(.serviceUnavailable, APIErrorCode.unavailable, "The server is busy (chaos mode); retry shortly.", retryAfter: 1)
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
        return try await next(request, context)
    }
}
