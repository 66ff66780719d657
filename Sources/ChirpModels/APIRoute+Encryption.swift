/// Turning a conversation's encryption on (API.md part 4, "Turning encryption on").
extension APIRoute {
    public static let encryptConversation = APIRoute(.put, "/v1/conversations/{username}/encryption")
    public static let encryptGroup = APIRoute(.put, "/v1/groups/{id}/encryption")

    /// The encryption routes, in `all`.
    public static let encryption: [APIRoute] = [encryptConversation, encryptGroup]
}
