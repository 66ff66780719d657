/// The logged-in user a request acts for.
struct Viewer: Sendable, Hashable {
    var id: Int64
    var username: String
    var tokenHash: [UInt8]
    /// The public id of the session the request came with (`GET /v1/sessions`).
    var sessionId: String = ""
}
