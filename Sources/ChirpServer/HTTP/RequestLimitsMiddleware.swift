import ChirpModels
import HTTPTypes
import Hummingbird

/// Refuses a request whose declared body is over the limit (413) before any handler runs; the
/// handlers that read bodies also stop reading at the limit, for chunked uploads.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes {
            throw APIError(.contentTooLarge, APIErrorCode.bodyTooLarge, "The request body is larger than \(maxBodyBytes / 1024) KiB.")
        }
        return try await next(request, context)
    }
}
