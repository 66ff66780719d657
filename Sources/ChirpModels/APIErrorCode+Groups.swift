/// The error codes of group conversations (API.md part 3).
extension APIErrorCode {
    /// A change only the group's admins may make (403).
    public static let notAdmin = "not_admin"
    /// Adding a member to a group that has `--max-group-members` already (409).
    public static let groupFull = "group_full"
    /// The user is in the most groups one may be in (`chirp serve --max-groups-per-user`).
    public static let tooManyGroups = "too_many_groups"
    /// No such group, or the viewer is not (or was never) a member of it (404).
    public static let groupNotFound = "group_not_found"
    /// A member change naming someone who is not a current member (404).
    public static let notMember = "not_member"
    /// Taking the admin role from a group's last admin (409).
    public static let lastAdmin = "last_admin"
    /// A title that is empty or longer than 80 characters (422).
    public static let invalidTitle = "invalid_title"
    /// A group of no other member, or of more than the server allows (422).
    public static let invalidMembers = "invalid_members"
}
