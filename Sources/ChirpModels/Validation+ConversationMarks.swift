/// The rules of pinned and muted conversations, shared by the server and clients.
extension Validation {
    /// Most conversations one user may have pinned at a time (API.md part 3).
    public static let maxPinnedConversations = 10
}
