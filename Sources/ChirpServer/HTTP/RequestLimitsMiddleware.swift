import ChirpModels
import HTTPTypes
import Hummingbird

/// Refuses a request whose declared body is over the limit (413) before any handler runs; the
/// handlers that read bodies also stop reading at the limit, for chunked uploads. Media uploads
/// (`PUT /v1/media/…`) are exempt: their route streams the body to disk under its own caps.
/// A group message's send or edit has the larger `maxGroupMessageBodyBytes` (its envelope names
/// every member's devices).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodyBytes: Int
    let maxGroupMessageBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let limit = Self.isGroupMessageWrite(request) ? maxGroupMessageBodyBytes : maxBodyBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit, !Self.isMediaUpload(request)
        {
            throw APIError(
                .contentTooLarge, APIErrorCode.bodyTooLarge, "The request body is larger than \(limit / 1024) KiB.")
        }
        return try await next(request, context)
    }

    /// `PUT /v1/groups/{id}/messages/{clientMessageId}` or `PATCH /v1/groups/{id}/messages/{id}`.
    static func isGroupMessageWrite(_ request: Request) -> Bool {
        guard request.method == .put || request.method == .patch, request.uri.path.hasPrefix("/v1/groups/") else {
            return false
        }
        let parts = request.uri.path.split(separator: "/")
        return parts.count == 5 && parts[3] == "messages"
    }

    static func isMediaUpload(_ request: Request) -> Bool {
        request.method == .put && (request.uri.path.hasPrefix("/v1/media/") || request.uri.path == "/bench/static")
    }
}
