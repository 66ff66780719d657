/// One current member of a `Group`: the user, their role and when they joined.
public struct GroupMember: Sendable, Hashable, Codable {
    public var user: User
    public var role: GroupRole
    public var joinedAt: Timestamp

    public init(user: User, role: GroupRole, joinedAt: Timestamp) {
        self.user = user
        self.role = role
        self.joinedAt = joinedAt
    }
}
