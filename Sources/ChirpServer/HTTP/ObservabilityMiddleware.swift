import HTTPTypes
import Hummingbird
import NIOCore

/// Tags each response with `X-Request-Id` (the caller's, if it sent a sane one), records the
/// request's count and latency by route template, and logs it at debug level: method, path
/// and status only. The query string is never logged, because `?token=` carries a secret.
struct ObservabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let routeTable: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let incoming = request.headers[.requestId].flatMap {
            $0.utf8.count <= 64 && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } ? $0 : nil
        }
        response.headers[.requestId] = incoming ?? context.id
        let elapsed = ContinuousClock.now - start
        let nanos = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        context.logger.debug(
            "\(request.method.rawValue) \(request.uri.path) \(response.status.code)",
            metadata: ["ms": "\(Double(nanos) / 1_000_000)"])
        metrics.record(
            route: context.endpointPath.map {
                routeTable.template(forEndpointPath: $0, method: request.method.rawValue)
            } ?? "unmatched", method: request.method.rawValue,
            status: response.status.code, nanoseconds: nanos)
        return response
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`.
    static let requestId = HTTPField.Name("X-Request-Id")!
}
