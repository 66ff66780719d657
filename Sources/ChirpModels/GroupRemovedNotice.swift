/// `group.removed` data: the receiver was removed from, or left, the group `group` (its id).
public struct GroupRemovedNotice: Sendable, Hashable, Codable {
    public var group: String
    public init(group: String) { self.group = group }
}
