import ChirpModels
import Hummingbird

/// The browser client: its page at `GET /`, its service worker at `GET /sw.js` (at the root, so
/// that its scope is the whole site) and its other files under `GET /web/{name}`. These are
/// not API routes (they are not in `APIRoute.all` nor in `openapi.yaml`); an unknown file is a
/// 404 with the API's error envelope.
struct WebClientRoutes {
    /// The prefix of every file but the page itself.
    static let prefix = "/web/"
    let assets: WebAssets

    func register(on router: Router<ChirpRequestContext>) {
        router.get("/") { request, _ in
            try serve("index.html", request)
        }
        router.get("/sw.js") { request, _ in
            try serve("sw.js", request)
        }
        router.get("/web/:asset") { request, context in
            try serve(context.parameters.get("asset") ?? "", request)
        }
    }

    private func serve(_ name: String, _ request: Request) throws -> Response {
        guard let response = assets.response(for: name, request: request) else {
            throw APIError(.notFound, APIErrorCode.notFound, "There is no such file of the web client.")
        }
        return response
    }
}
