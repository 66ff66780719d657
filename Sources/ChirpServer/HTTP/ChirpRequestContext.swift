import Hummingbird

/// The per-request context of the Chirp server: Hummingbird's core storage plus the
/// authenticated viewer, set by the authentication step of protected routes.
struct ChirpRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var viewer: Viewer?
    /// Path parameters under the names API.md gives them.
    var pathValues: [String: String] = [:]

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.viewer = nil
    }

    /// Request bodies above 64 KiB are refused (413) before they are decoded.
    var maxUploadSize: Int { 64 * 1024 }
}

/// The logged-in user a request acts for.
struct Viewer: Sendable, Hashable {
    var id: Int64
    var username: String
    var tokenHash: [UInt8]
}
