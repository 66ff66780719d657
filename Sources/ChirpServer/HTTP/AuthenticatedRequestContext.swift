import Hummingbird

/// The context of a protected route (Hummingbird's child request context): built from a
/// `ChirpRequestContext` after `AuthenticationMiddleware`, and only when it found the viewer,
/// so every handler has a `viewer` and none checks again.
struct AuthenticatedRequestContext: APIRequestContext, ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The logged-in user the request acts for.
    let viewer: Viewer
    var pathValues: [String: String]
    let clientAddress: ClientAddress?
    static var actsForViewer: Bool { true }

    init(context: ChirpRequestContext) throws {
        guard let viewer = context.viewer else { throw APIError.missingToken }
        self.coreContext = context.coreContext
        self.viewer = viewer
        self.pathValues = context.pathValues
        self.clientAddress = context.clientAddress
    }

    var maxUploadSize: Int { 64 * 1024 }
}
