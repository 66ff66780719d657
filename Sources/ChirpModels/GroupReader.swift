/// One entry of `GET /v1/groups/{id}/messages/{messageId}/reads`: a member who read the
/// message, and when their read marker first covered it.
public struct GroupReader: Sendable, Hashable, Codable {
    public var user: User
    public var readAt: Timestamp

    public init(user: User, readAt: Timestamp) {
        self.user = user
        self.readAt = readAt
    }
}
