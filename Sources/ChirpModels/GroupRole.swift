/// A member's role in a group: admins rename it, add and remove members and make admins.
public enum GroupRole: String, Sendable, Hashable, Codable {
    case admin
    case member
}
