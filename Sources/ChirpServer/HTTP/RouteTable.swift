import ChirpModels

/// Matches concrete paths against the API's route templates, to tell "no such path" (404) from
/// "path exists, method does not" (405 with `Allow`).
struct RouteTable: Sendable {
    private let routes: [(segments: [Substring], method: String)]
    private let templatesByRouterPath: [String: String]

    init(_ routes: [APIRoute] = APIRoute.all) {
        self.routes = routes.map { ($0.template.split(separator: "/"), $0.method.rawValue) }
        var templates: [String: String] = [:]
        for route in routes {
            // Hummingbird reports `/v1/users/:p2/follow` as `/v1/users/{p2}/follow`.
            let endpoint = Self.routerPath(for: route.template).path.split(separator: "/")
                .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            // Keyed with the method: `PUT …/messages/{clientMessageId}` and `PATCH …/messages/{messageId}` share a router path.
            templates[route.method.rawValue + " /" + endpoint.joined(separator: "/")] = route.template
        }
        self.templatesByRouterPath = templates
    }

    /// Hummingbird's trie wants one name per parameter position (`PUT /v1/tweets/{clientTweetId}`
    /// and `DELETE /v1/tweets/{id}` share one), so parameters are registered by position: this
    /// returns the router path (`/v1/users/:p2/follow`) and the API name of each parameter.
    static func routerPath(for template: String) -> (path: String, names: [(api: String, router: String)]) {
        var names: [(api: String, router: String)] = []
        let segments = template.split(separator: "/").enumerated().map { index, segment -> String in
            guard segment.hasPrefix("{") else { return String(segment) }
            names.append((String(segment.dropFirst().dropLast()), "p\(index)"))
            return ":p\(index)"
        }
        return ("/" + segments.joined(separator: "/"), names)
    }

    /// The API template (`/v1/users/{username}/follow`) for Hummingbird's endpoint path
    /// (`/v1/users/{p2}/follow`) of a request with `method`, for metrics labels.
    func template(forEndpointPath path: String, method: String) -> String {
        templatesByRouterPath[method + " " + path] ?? templatesByRouterPath["GET " + path] ?? path
    }

    /// The methods the API allows on `path` (empty when no template matches).
    func allowedMethods(for path: String) -> [String] {
        let segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/") } ?? []
        var methods: [String] = []
        for route in routes where route.segments.count == segments.count {
            let matches = zip(route.segments, segments).allSatisfy { template, actual in
                template.hasPrefix("{") || template == actual
            }
            if matches, !methods.contains(route.method) { methods.append(route.method) }
        }
        return methods
    }
}
