/// A Chirp account as the API shows it.
///
/// `followsYou` and `followedByYou` are present only when the user is seen by a logged-in
/// viewer other than the account creation and login responses.
public struct User: Sendable, Hashable, Codable {
    public var id: String
    public var username: String
    public var displayName: String
    public var createdAt: Timestamp
    public var followersCount: Int
    public var followingCount: Int
    public var followsYou: Bool?
    public var followedByYou: Bool?
    /// True for the placeholder of a deleted account (`deleted-ID`, "Deleted account"); absent
    /// otherwise.
    public var deleted: Bool?
    /// Whether the account is one of the server's operators: present in `GET /v1/me` only.
    public var `operator`: Bool?

    public init(
        id: String, username: String, displayName: String, createdAt: Timestamp,
        followersCount: Int, followingCount: Int, followsYou: Bool? = nil, followedByYou: Bool? = nil
    ) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.createdAt = createdAt
        self.followersCount = followersCount
        self.followingCount = followingCount
        self.followsYou = followsYou
        self.followedByYou = followedByYou
        self.deleted = Validation.isDeletedAccountName(username) ? true : nil
    }
}
