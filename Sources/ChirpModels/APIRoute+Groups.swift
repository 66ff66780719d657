/// Group conversations (API.md part 3): a family of routes under `/v1/groups` that mirrors the
/// direct one path for path.
extension APIRoute {
    public static let createGroup = APIRoute(.put, "/v1/groups/{clientGroupId}")
    public static let group = APIRoute(.get, "/v1/groups/{id}")
    public static let renameGroup = APIRoute(.patch, "/v1/groups/{id}")
    public static let addGroupMember = APIRoute(.put, "/v1/groups/{id}/members/{username}")
    public static let removeGroupMember = APIRoute(.delete, "/v1/groups/{id}/members/{username}")
    public static let addGroupAdmin = APIRoute(.put, "/v1/groups/{id}/admins/{username}")
    public static let removeGroupAdmin = APIRoute(.delete, "/v1/groups/{id}/admins/{username}")
    public static let sendGroupMessage = APIRoute(.put, "/v1/groups/{id}/messages/{clientMessageId}")
    public static let groupMessages = APIRoute(.get, "/v1/groups/{id}/messages")
    public static let markGroupRead = APIRoute(.post, "/v1/groups/{id}/read")
    public static let groupMessageReads = APIRoute(.get, "/v1/groups/{id}/messages/{messageId}/reads")
    public static let groupTyping = APIRoute(.post, "/v1/groups/{id}/typing")
    public static let addGroupReaction = APIRoute(.put, "/v1/groups/{id}/messages/{messageId}/reactions/{emoji}")
    public static let removeGroupReaction = APIRoute(.delete, "/v1/groups/{id}/messages/{messageId}/reactions/{emoji}")
    public static let editGroupMessage = APIRoute(.patch, "/v1/groups/{id}/messages/{messageId}")
    public static let unsendGroupMessage = APIRoute(.delete, "/v1/groups/{id}/messages/{messageId}")
    public static let acceptGroupRequest = APIRoute(.post, "/v1/groups/{id}/accept")
    public static let declineGroupRequest = APIRoute(.delete, "/v1/groups/{id}/request")
    public static let pinGroup = APIRoute(.put, "/v1/groups/{id}/pin")
    public static let unpinGroup = APIRoute(.delete, "/v1/groups/{id}/pin")
    public static let muteGroup = APIRoute(.put, "/v1/groups/{id}/mute")
    public static let unmuteGroup = APIRoute(.delete, "/v1/groups/{id}/mute")

    /// The group routes the server answers, in `all`.
    public static let groups: [APIRoute] = [
        createGroup, group, renameGroup, addGroupMember, removeGroupMember, addGroupAdmin, removeGroupAdmin,
        sendGroupMessage, groupMessages, markGroupRead, groupMessageReads, groupTyping,
        addGroupReaction, removeGroupReaction, editGroupMessage, unsendGroupMessage,
        acceptGroupRequest, declineGroupRequest, pinGroup, unpinGroup, muteGroup, unmuteGroup,
    ]
}
