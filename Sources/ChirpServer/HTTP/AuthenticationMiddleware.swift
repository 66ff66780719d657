import Hummingbird

/// Resolves the bearer token of a request to protected routes (401 when it cannot) and sets
/// `context.viewer`, from which the routes' `AuthenticatedRequestContext` is built.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ChirpRequestContext
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.viewer = try await authenticator.viewer(for: request)
        return try await next(request, context)
    }
}
