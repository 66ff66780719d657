import ChirpModels

extension APIRoute {
    /// The path of `direct` for a peer, or of `group` (its `{id}`) for a group key; `parameters`
    /// fill the rest of either.
    static func path(_ direct: APIRoute, or group: APIRoute, for key: String, _ parameters: [String: String] = [:])
        -> String
    {
        if let id = ConversationKey.groupId(of: key) { return group.path(parameters.merging(["id": id]) { $1 }) }
        return direct.path(parameters.merging(["username": key]) { $1 })
    }
}
