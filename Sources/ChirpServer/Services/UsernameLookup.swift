import ChirpModels

/// How a username named in a request is looked up: by its key (usernames are unique ignoring
/// case), and a name no account can have is a 404 without asking storage.
enum UsernameLookup {
    static func key(_ username: String) throws -> String {
        guard Validation.isPossibleUsername(username) else { throw APIError.userNotFound(username) }
        return Validation.usernameKey(username)
    }
}
