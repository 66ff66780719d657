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
    /// Only the members' devices can read its messages (API.md part 4); an admin turns it on,
    /// and it is never turned off. Absent in JSON (before part 4): false.
    public var encrypted: Bool

    public init(
        id: String, title: String, createdAt: Timestamp, createdBy: String, members: [GroupMember],
        encrypted: Bool = false
    ) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.memberCount = members.count
        self.members = members
        self.encrypted = encrypted
    }

    enum CodingKeys: String, CodingKey {
        case id, title, createdAt, createdBy, memberCount, members, request, encrypted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        createdBy = try container.decode(String.self, forKey: .createdBy)
        memberCount = try container.decode(Int.self, forKey: .memberCount)
        members = try container.decode([GroupMember].self, forKey: .members)
        request = try container.decodeIfPresent(Bool.self, forKey: .request)
        encrypted = try container.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false
    }
}
