import ChirpModels
import HTTPTypes
import Hummingbird

/// Refuses a request whose declared body is over the limit (413) before any handler runs; the
/// handlers that read bodies also stop reading at the limit, for chunked uploads. Media uploads
/// (`PUT /v1/media/…`) are exempt: their route streams the body to disk under its own caps.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes,
            !Self.isMediaUpload(request)
        {
            throw APIError(
                .contentTooLarge, APIErrorCode.bodyTooLarge,
                "The request body is larger than \(maxBodyBytes / 1024) KiB.")
        }
        return try await next(request, context)
    }

    static func isMediaUpload(_ request: Request) -> Bool {
        request.method == .put && (request.uri.path.hasPrefix("/v1/media/") || request.uri.path == "/bench/static")
    }
}
