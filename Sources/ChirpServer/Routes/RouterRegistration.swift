import ChirpModels
import HTTPTypes
import Hummingbird

extension RouterMethods where Context: APIRequestContext {
    /// Registers a handler for an API route, its path written once in `APIRoute`. A protected
    /// route must be added to the authenticated group (`AuthenticatedRequestContext`), an open
    /// one to the router itself; registering one on the other is a programming error.
    func add(_ route: APIRoute, _ handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        precondition(route.requiresAuth == Context.actsForViewer, "\(route) is registered on the wrong context")
        let (path, parameterNames) = RouteTable.routerPath(for: route.template)
        let method = HTTPRequest.Method(route.method.rawValue)!
        on(RouterPath(path), method: method) { request, context in
            var context = context
            for (api, router) in parameterNames {
                context.pathValues[api] = context.parameters.get(router)
            }
            return try await handler(request, context)
        }
    }
}
