/// The logged-in user a request acts for.
struct Viewer: Sendable, Hashable {
    var id: Int64
    var username: String
    var tokenHash: [UInt8]
}
