import Hummingbird

/// A request context of the Chirp API: path parameters under the names API.md gives them.
protocol APIRequestContext: RequestContext {
    var pathValues: [String: String] { get set }
    /// The client's IP address: the connection's peer, or behind a trusted proxy the client
    /// it names (`ForwardedClientMiddleware`); nil on a Unix socket. Per-address limits count it.
    var clientAddress: ClientAddress? { get }
    /// Whether routes on this context act for a logged-in user (`APIRoute.requiresAuth`).
    static var actsForViewer: Bool { get }
}

/// The per-request context of every route: Hummingbird's core storage, path parameters, and
/// the viewer once `AuthenticationMiddleware` found one (protected routes then run on an
/// `AuthenticatedRequestContext`, which carries it for sure).
struct ChirpRequestContext: APIRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The logged-in user, set by `AuthenticationMiddleware` in front of protected routes.
    var viewer: Viewer?
    var pathValues: [String: String] = [:]
    var clientAddress: ClientAddress?
    static var actsForViewer: Bool { false }

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.viewer = nil
        self.clientAddress = source.channel.remoteAddress.flatMap(ClientAddress.init)
    }

    /// Request bodies above 64 KiB are refused (413) before they are decoded.
    var maxUploadSize: Int { 64 * 1024 }
}

extension APIRequestContext {
    /// A path parameter that the route template guarantees.
    func pathParameter(_ name: String) throws -> String {
        guard let value = pathValues[name] else {
            throw APIError.badParameter(name, "The path parameter '\(name)' is missing.")
        }
        return value
    }
}
