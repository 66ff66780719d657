import ChirpModels
import HTTPTypes
import Hummingbird

extension Router where Context == ChirpRequestContext {
    /// Registers a handler for an API route; protected routes authenticate first and reach the
    /// handler with `context.viewer` set.
    func add(
        _ route: APIRoute, services: ServerServices,
        _ handler: @escaping @Sendable (Request, ChirpRequestContext) async throws -> Response
    ) {
        let (path, parameterNames) = RouteTable.routerPath(for: route.template)
        let method = HTTPRequest.Method(route.method.rawValue)!
        let requiresAuth = route.requiresAuth
        on(RouterPath(path), method: method) { request, context in
            var context = context
            for (api, router) in parameterNames {
                context.pathValues[api] = context.parameters.get(router)
            }
            if requiresAuth {
                context.viewer = try await Authenticator(services: services).viewer(for: request)
            }
            return try await handler(request, context)
        }
    }
}

extension ChirpRequestContext {
    /// The authenticated user; set on every protected route.
    func requireViewer() throws -> Viewer {
        guard let viewer else { throw APIError.missingToken }
        return viewer
    }

    /// A path parameter that the route template guarantees.
    func pathParameter(_ name: String) throws -> String {
        guard let value = pathValues[name] else {
            throw APIError.badParameter(name, "The path parameter '\(name)' is missing.")
        }
        return value
    }
}
