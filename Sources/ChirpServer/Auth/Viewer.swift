/// The logged-in user a request acts for.
struct Viewer: Sendable, Hashable {
    var id: Int64
    var username: String
    var tokenHash: [UInt8]
    /// The public id of the session the request came with (`GET /v1/sessions`).
    var sessionId: String = ""
    /// The session was taken from this instance's cache while other instances share the
    /// database (`SessionCache.sharedDatabase`), so it may have ended elsewhere since: the
    /// send's write confirms it in the same statement and fails with 401 if it is gone. Only
    /// the send route accepts such a viewer; what else it does first with the viewer must call
    /// `AccountService.confirmed(_:)`.
    var sessionConfirmedByWrite = false
}
