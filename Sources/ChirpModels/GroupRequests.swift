/// Body of `PUT /v1/groups/{clientGroupId}`: the title and the other members' usernames.
public struct CreateGroupRequest: Sendable, Hashable, Codable {
    public var title: String
    public var members: [String]

    public init(title: String, members: [String]) {
        self.title = title
        self.members = members
    }
}

/// Body of `PATCH /v1/groups/{id}`.
public struct UpdateGroupRequest: Sendable, Hashable, Codable {
    public var title: String
    public init(title: String) { self.title = title }
}
