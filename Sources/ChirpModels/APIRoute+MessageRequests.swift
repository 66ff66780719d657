/// Message requests (API.md part 3, direct conversations): the viewer's settings, and the
/// answers to a request (`GET /v1/conversations?requests=true` lists them).
extension APIRoute {
    public static let settings = APIRoute(.get, "/v1/me/settings")
    public static let updateSettings = APIRoute(.patch, "/v1/me/settings")
    public static let acceptRequest = APIRoute(.post, "/v1/conversations/{username}/accept")
    public static let declineRequest = APIRoute(.delete, "/v1/conversations/{username}")

    /// The message requests' routes, in `all`.
    public static let messageRequests: [APIRoute] = [settings, updateSettings, acceptRequest, declineRequest]
}
