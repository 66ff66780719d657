/// The logged-in user a request acts for.
struct Viewer: Sendable, Hashable {
    var id: Int64
    var username: String
    var tokenHash: [UInt8]
    /// The public id of the session the request came with (`GET /v1/sessions`).
    var sessionId: String = ""
    /// How the session the request came with is known to be live.
    var sessionConfirmation: SessionConfirmation = .byRead
}

/// How a request's session is known to be live: found by a read, or to be confirmed by the
/// send's own write.
enum SessionConfirmation: Sendable, Hashable {
    /// A read found it live: storage's, or this instance's cache while the instance is alone
    /// on its database (it ends every session itself, so its cache is never behind).
    case byRead
    /// Taken from this instance's cache while other instances share the database
    /// (`SessionCache.sharedDatabase`), so it may have ended elsewhere since: the send's write
    /// confirms it in the same statement, and fails with 401 if it is gone. Only the send
    /// route accepts such a viewer (`Authenticator.accepts`); whatever the send reads for the
    /// viewer before its write, it reads with the viewer `AccountService.confirmed(_:)` returns.
    case bySendWrite
}
