/// A group conversation (API.md part 3): its title, who created it and its current members
/// with their roles. `id` is a decimal string.
public struct Group: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var createdAt: Timestamp
    /// The creator's username (the group's first admin).
    public var createdBy: String
    public var memberCount: Int
    /// The current members, longest-standing first.
    public var members: [GroupMember]
    /// In a `group.created` event only: `true` when joining made the group a message request
    /// for the member it is sent to (added by someone who may not message them; API.md part 3),
    /// so a client lists it under requests without asking. Absent everywhere else.
    public var request: Bool?

    public init(id: String, title: String, createdAt: Timestamp, createdBy: String, members: [GroupMember]) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.memberCount = members.count
        self.members = members
    }
}
