import Hummingbird

/// Behind a trusted proxy (`chirp serve --trusted-proxy`), sets the request context's
/// `clientAddress` to the client `X-Forwarded-For` names; from any other peer the header is
/// ignored. Added only when proxies are configured, so it costs nothing otherwise.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = ChirpRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let peer = context.clientAddress, proxies.trusts(peer) else { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.client(peer: peer, fields: request.headers)
        return try await next(request, context)
    }
}
