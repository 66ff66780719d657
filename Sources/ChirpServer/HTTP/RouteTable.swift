import ChirpModels

/// Matches concrete paths against the API's route templates, to tell "no such path" (404) from
/// "path exists, method does not" (405 with `Allow`).
struct RouteTable: Sendable {
    private let routes: [(segments: [Substring], method: String)]

    init(_ routes: [APIRoute] = APIRoute.all) {
        self.routes = routes.map { ($0.template.split(separator: "/"), $0.method.rawValue) }
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
