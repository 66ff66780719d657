import ChirpDataCenter
import ChirpModels
import ChirpPersistence

/// One user in someone's followers or following list, in the server's order (newest follow
/// first). Refreshed from `GET /v1/users/{username}/followers|following`.
public struct FollowEntry: DataCenterManaged {
    public static let tableName = "follow_entries"

    /// `owner/relation/username`, lowercased.
    public var id: String
    /// Whose list it is, lowercased.
    public var owner: String
    /// `followers` or `following`.
    public var relation: String
    public var username: String
    public var displayName: String
    /// Position in the list (0 is the newest follow).
    public var position: Int

    /// `user` in `owner`'s list `relation` (`followers` or `following`) at `position` (0 is newest).
    public init(owner: String, relation: String, user: User, position: Int) {
        self.owner = owner.lowercased()
        self.relation = relation
        id = "\(owner.lowercased())/\(relation)/\(user.username.lowercased())"
        username = user.username
        displayName = user.displayName
        self.position = position
    }

    /// A refresh replaces the first page of the list.
    public static func records(from response: Page<User>, for request: ChirpEndpoints.ListUsers) -> [FollowEntry] {
        response.items.enumerated().map {
            FollowEntry(owner: request.username, relation: request.relationName, user: $1, position: $0)
        }
    }

    /// The stored list of `request`.
    public static func scope(of request: ChirpEndpoints.ListUsers) -> RecordQuery? {
        list(request.relationName, of: request.username)
    }

    /// The stored list `relation` (`followers` or `following`) of `owner`, in order.
    static func list(_ relation: String, of owner: String) -> RecordQuery {
        RecordQuery().filter("owner", .equal, .text(owner.lowercased())).filter("relation", .equal, .text(relation))
            .order(by: "position")
    }
}
